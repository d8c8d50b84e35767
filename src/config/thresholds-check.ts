/**
 * The thresholds file checked strictly at every level, so that no setting in it is silently ignored: every section and
 * every key known (a typo names the closest known key), every section an object, scaling bands ordered low to high,
 * stage names those of the pipeline. Value ranges are the schema's (thresholds-schema.ts).
 */

import { PIPELINE_STAGES } from '../pipeline/stages.ts'
import { closestMatch } from './closest.ts'
import { DEFAULT_THRESHOLDS, type Thresholds } from './thresholds-schema.ts'

/** One thing wrong in a thresholds file: where (a key path) is inside `problem`. */
export interface ThresholdsProblem {
  problem: string
  fix: string
}

const SECTIONS = Object.keys(DEFAULT_THRESHOLDS) as (keyof Thresholds)[]
/** Sections keyed by GPU counts rather than by names of ours. */
const OPEN_SECTIONS: readonly string[] = ['scalingBands']

function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value} (${JSON.stringify(value)})`
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const didYouMean = (near: string | undefined) => (near === undefined ? '' : ` (did you mean ${near}?)`)

/** The first problem of the file's shape (sections and keys), before any value is looked at; undefined when none. */
export function shapeProblem(overrides: unknown): ThresholdsProblem | undefined {
  if (!isObject(overrides))
    return {
      problem: `expected a JSON object of threshold sections, got ${typeName(overrides)}`,
      fix: 'write it as {"perf02": {"minUtilPct": 70}} with only the keys you change',
    }
  for (const [section, value] of Object.entries(overrides)) {
    const problem = sectionProblem(section, value)
    if (problem) return problem
  }
  return undefined
}

function sectionProblem(section: string, value: unknown): ThresholdsProblem | undefined {
  if (!(SECTIONS as string[]).includes(section))
    return {
      problem: `unknown threshold section '${section}'${didYouMean(closestMatch(section, SECTIONS))}`,
      fix: `use one of ${SECTIONS.join(', ')}`,
    }
  if (!isObject(value))
    return {
      problem: `${section} must be an object of thresholds, got ${typeName(value)}`,
      fix: `write it as "${section}": {${exampleKey(section)}}`,
    }
  if (OPEN_SECTIONS.includes(section)) {
    const badKey = Object.keys(value).find((key) => !/^\d+$/.test(key) || Number(key) < 2)
    return badKey === undefined
      ? undefined
      : {
          problem: `${section}.${badKey}: a band's key is the GPU count it is for, 2 or more`,
          fix: `key it by GPU count, e.g. "${section}": {"4": [3.0, 4.0]}`,
        }
  }
  const known = Object.keys(DEFAULT_THRESHOLDS[section as keyof Thresholds])
  const unknown = Object.keys(value).find((key) => !known.includes(key))
  if (unknown === undefined) return undefined
  return {
    problem: `${section}.${unknown} is not a threshold${didYouMean(prefixed(section, closestMatch(unknown, known)))}`,
    fix: `rename or remove it (${section} has ${known.join(', ')})`,
  }
}

const prefixed = (section: string, key: string | undefined) => (key === undefined ? undefined : `${section}.${key}`)

function exampleKey(section: string): string {
  const [key, value] = Object.entries(DEFAULT_THRESHOLDS[section as keyof Thresholds])[0]!
  return `"${key}": ${JSON.stringify(value)}`
}

/** The first problem of the merged thresholds' meaning (bands ordered, stage names known); undefined when none. */
export function meaningProblem(thresholds: Thresholds): ThresholdsProblem | undefined {
  for (const [gpus, [low, high]] of Object.entries(thresholds.scalingBands))
    if (low > high)
      return {
        problem: `scalingBands.${gpus} is [${low}, ${high}]: its low end is above its high end`,
        fix: `write it as [low, high], e.g. [${high}, ${low}]`,
      }
  const stages = thresholds.perf02.stages.map((stage, i) => ({ key: `perf02.stages[${i}]`, stage }))
  for (const { key, stage } of [...stages, { key: 'perf03.stage', stage: thresholds.perf03.stage }])
    if (!(PIPELINE_STAGES as readonly string[]).includes(stage))
      return {
        problem: `${key} '${stage}' is not a pipeline stage${didYouMean(closestStage(stage))}`,
        fix: `use a stage name as the pipeline logs it: ${PIPELINE_STAGES.join(', ')}`,
      }
  return undefined
}

/** Stage names are long: the nearest by edit distance, compared case-insensitively. */
function closestStage(stage: string): string | undefined {
  const near = closestMatch(
    stage.toLowerCase(),
    PIPELINE_STAGES.map((s) => s.toLowerCase()),
  )
  return near === undefined ? undefined : `'${PIPELINE_STAGES.find((s) => s.toLowerCase() === near)}'`
}

import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { type HelpOption, parseHelpOptions } from '../../src/pipeline/help-options.ts'
import {
  flagsOfEntry,
  groupOptionsByStage,
  STAGE_WORDS,
  stageOptionEntries,
  stagesOfOption,
  WHOLE_PIPELINE,
  wordsOfStage,
} from '../../src/pipeline/stage-options.ts'
import { PIPELINE_STAGES } from '../../src/pipeline/stages.ts'

const fixture = (name: string) => readFileSync(new URL(`../fixtures/help/${name}`, import.meta.url), 'utf8')
const option = (flags: string[], help = ''): HelpOption => ({ flags, metavar: null, help, default: null })
const flagsIn = (groups: ReturnType<typeof groupOptionsByStage>, stage: string) =>
  groups.find((g) => g.stage === stage)?.options.map((o) => o.flags.at(-1)) ?? []

describe("VirNucPro's own options by stage (its click --help)", () => {
  const groups = groupOptionsByStage(parseHelpOptions(fixture('virnucpro-predict.txt')))

  test('DNABERT-S and ESM-2 get the options that name them, in flag or help; help itself is left out', () => {
    expect(flagsIn(groups, 'DNABERT-S Feature Extraction')).toEqual(['--dnabert-batch-size'])
    expect(flagsIn(groups, 'ESM-2 Feature Extraction')).toEqual(['--v1-fallback', '--v1-attention', '--esm-batch-size'])
    expect(groups.flatMap((g) => g.options).some((o) => o.flags.includes('--help'))).toBe(false)
  })

  test('an option naming two stages is listed under both ("threads for translation and merge")', () => {
    expect(flagsIn(groups, 'Six-Frame Translation')).toEqual(['--merge-threads'])
    expect(flagsIn(groups, 'Feature Merging')).toEqual(['--merge-threads'])
  })

  test('options naming no stage (--gpus, -w workers, CUDA streams) are the whole pipeline, listed last', () => {
    expect(groups.at(-1)?.stage).toBe(WHOLE_PIPELINE)
    const whole = flagsIn(groups, WHOLE_PIPELINE)
    for (const flag of ['--gpus', '--num-workers', '--dataloader-workers', '--no-cuda-streams', '--parallel'])
      expect(whole).toContain(flag)
    // `{input}_predictions` (an output directory) is not the prediction stage: `prediction` is matched as a whole word.
    expect(whole).toContain('--output-dir')
    expect(flagsIn(groups, 'Model Prediction')).toEqual(['--batch-size'])
  })

  test('stages in pipeline order, each listed only with an option of its own', () => {
    const stages = groups.map((g) => g.stage).filter((s) => s !== WHOLE_PIPELINE)
    expect(stages).toEqual(PIPELINE_STAGES.filter((s) => stages.includes(s)))
    for (const g of groups) expect(g.options.length).toBeGreaterThan(0)
  })
})

describe("the reference pipeline's options by stage (its argparse --help)", () => {
  const groups = groupOptionsByStage(parseHelpOptions(fixture('refpipe-predict.txt')))

  test('the embedding batch budgets, the classifier batch and the chunk length land in their stages', () => {
    expect(flagsIn(groups, 'DNABERT-S Feature Extraction')).toEqual(['--dnabert-batch-size'])
    expect(flagsIn(groups, 'ESM-2 Feature Extraction')).toEqual(['--esm-batch-size'])
    expect(flagsIn(groups, 'Model Prediction')).toEqual(['--batch-size'])
    expect(flagsIn(groups, 'Sequence Chunking')).toContain('--model-type')
    expect(flagsIn(groups, WHOLE_PIPELINE)).toEqual(expect.arrayContaining(['--num-workers', '--gpus', '--seed']))
  })
})

describe('matching', () => {
  test.each([
    [['--dnabert-batch-size'], '', ['DNABERT-S Feature Extraction']],
    [['--x'], 'tokens per DNABERT-S batch', ['DNABERT-S Feature Extraction']],
    [['--DNABERT_BATCH'], '', ['DNABERT-S Feature Extraction']],
    [['--esm2-budget'], '', ['ESM-2 Feature Extraction']],
    [['--frames'], 'sixframe translation threads', ['Six-Frame Translation']],
    [['--frames'], 'Six Frame threads', ['Six-Frame Translation']],
    [['--chunk-overlap'], '', ['Sequence Chunking']],
    [['--out'], 'write {input}_predictions', []],
    [['--workers'], 'DataLoader workers (4)', []],
    [['--resume'], 'Resume from checkpoint (chunking included)', ['Sequence Chunking']],
  ])('%j %j -> %j', (flags, help, stages) => {
    expect(stagesOfOption(option(flags, help))).toEqual(stages)
  })

  test("a stage outside VirNucPro's nine is named by its own words less the generic ones", () => {
    expect(wordsOfStage('Read Deduplication')).toEqual(['read', 'deduplication'])
    expect(wordsOfStage('DNABERT-S Feature Extraction')).toBe(STAGE_WORDS['DNABERT-S Feature Extraction'])
    const stages = ['Read Deduplication', 'DNABERT-S Feature Extraction']
    expect(stagesOfOption(option(['--dedup-window'], 'deduplication window'), stages)).toEqual(['Read Deduplication'])
  })

  test('entries keep every spelling as printed, and flagsOfEntry gives them back', () => {
    const groups = groupOptionsByStage([option(['-w', '--num-workers'], 'workers'), option(['--a', '--no-a'], 'esm')])
    const entries = stageOptionEntries(groups)
    expect(entries).toEqual([
      { stage: 'ESM-2 Feature Extraction', options: [{ flag: '--a, --no-a', help: 'esm' }] },
      { stage: WHOLE_PIPELINE, options: [{ flag: '-w, --num-workers', help: 'workers' }] },
    ])
    expect(flagsOfEntry('-w, --num-workers')).toEqual(['-w', '--num-workers'])
    expect(flagsOfEntry('--cuda-streams / --no-cuda-streams')).toEqual(['--cuda-streams', '--no-cuda-streams'])
  })

  test('property: every option lands in a group, exactly once unless it names several stages; never throws', () => {
    const anyOption = fc.record({
      flags: fc.array(fc.string({ maxLength: 12 }), { minLength: 1, maxLength: 3 }),
      metavar: fc.constant(null),
      help: fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('ESM-2 and DNABERT-S', 'chunk', 'workers')),
      default: fc.constant(null),
    })
    fc.assert(
      fc.property(fc.array(anyOption, { maxLength: 10 }), (options) => {
        const groups = groupOptionsByStage(options)
        for (const o of options) {
          if (o.flags.includes('--help')) continue
          const where = groups.filter((g) => g.options.includes(o)).map((g) => g.stage)
          const named = stagesOfOption(o)
          expect(where).toEqual(named.length === 0 ? [WHOLE_PIPELINE] : named)
        }
      }),
    )
  })
})

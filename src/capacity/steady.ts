/**
 * One source per stage for all the runs of a configuration. A run may give a stage's steady part from several sources
 * (capacity/rates.ts RATE_SOURCES), and two runs of one configuration may not give the same best one: VirNucPro's v2
 * ESM-2 workers log batch lines above a few thousand proteins a worker and none below, so a 4,000-record run reads
 * its batch lines and a 1,000-record run its worker spans. Each source holds a different share of the stage's
 * start-up, so a line through steady parts of two sources would read that difference as a per-sequence cost: the
 * configuration's stage is read from the best source every run has, and where no source is in every run, from the one
 * most runs have (the runs without it then give the stage no steady part, and the stage is fitted whole).
 */
import { RATE_SOURCES, type RateSource, type StageSteady } from './rates.ts'
import { type CapacityRun, preSeries, steadySeries } from './runs.ts'

/** A run's readings per stage (runs built without them: their one steady part). */
const readingsOf = (r: CapacityRun): Record<string, StageSteady[]> =>
  r.readings ?? Object.fromEntries(Object.entries(r.steady).map(([stage, s]) => [stage, [s]]))

/** The source a stage's runs are read from: the best every run has, else the one most runs have (best on a tie). */
function chooseSource(runs: readonly CapacityRun[], stage: string): RateSource | null {
  const has = (source: RateSource) => runs.filter((r) => readingsOf(r)[stage]?.some((s) => s.source === source)).length
  const counts = RATE_SOURCES.map((source) => ({ source, runs: has(source) }))
  const best = counts.reduce((a, c) => (c.runs > a.runs ? c : a))
  return best.runs === 0 ? null : best.source
}

/** The run with each stage's steady and pre parts from `sources`' source, or none where it has no reading of it. */
function withSources(r: CapacityRun, sources: ReadonlyMap<string, RateSource>): CapacityRun {
  const values = { ...r.values }
  const steady: Record<string, StageSteady> = {}
  for (const [stage, source] of sources) {
    const reading = readingsOf(r)[stage]?.find((s) => s.source === source)
    const durationMs = values[stage]
    if (reading && durationMs !== undefined) {
      steady[stage] = reading
      values[steadySeries(stage)] = reading.steadyMs
      values[preSeries(stage)] = durationMs - reading.steadyMs
    } else {
      delete values[steadySeries(stage)]
      delete values[preSeries(stage)]
    }
  }
  return { ...r, values, steady }
}

/** The configuration's runs, each stage read from one source (each run's `steady` says which). */
export function withCommonSources(runs: readonly CapacityRun[]): CapacityRun[] {
  const stages = [...new Set(runs.flatMap((r) => Object.keys(readingsOf(r))))]
  const sources = new Map<string, RateSource>()
  for (const stage of stages) {
    const source = chooseSource(runs, stage)
    if (source) sources.set(stage, source)
  }
  return runs.map((r) => withSources(r, sources))
}

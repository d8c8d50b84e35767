/**
 * Every metric the history keeps, named in one place: how each name is built, from which part of a result record, and
 * which way is better. Names are stable across runs (they key the series), so they are built from record content that
 * is itself stable: verdict ids, run-setup labels, GPU counts, stage names, target sizes. Pure.
 */

export type Better = 'lower' | 'higher'

export interface HeadlineMetric {
  /** The record (id within its run) the figure comes from. */
  recordId: string
  name: string
  unit: string | null
  better: Better | null
  value: number
  ci: { low: number; high: number } | null
  /** Runs behind the figure, where it is a median of runs; null for a verdict's value. */
  n: number | null
  /** The verdict's state (pass, fail, ...), for verdict metrics; null for the others. */
  verdict: string | null
  /**
   * The runs behind a median, one value per counted run, where the record holds them (wall time, J/seq, stage rates):
   * what the newest run is judged with against the last stable window. null for verdicts and projections.
   */
  samples: number[] | null
}

export type MetricFigure = Omit<HeadlineMetric, 'recordId' | 'better'>

/**
 * The metric families, one line each: the name pattern, its unit and where its value comes from. `history
 * show --help` lists them from here.
 */
export const METRIC_FAMILIES = [
  { pattern: '<verdict id>', unit: "the verdict's", from: 'every verdict with a numeric value (value, CI, state)' },
  { pattern: 'wall/<setup>', unit: 'ms', from: "a run group's counted runs: median wall time with its CI" },
  { pattern: 'energy/<setup>', unit: 'J/seq', from: "a run group's counted runs: median monitor energy per sequence" },
  {
    pattern: 'rate/<setup>/<stage>',
    unit: 'items/s',
    from: 'stage records: ESM-2 / DNABERT-S items per second (proteins, frames, as the log counts them)',
  },
  {
    pattern: 'capacity/<gpus>/rate/<stage>',
    unit: 'seq/s',
    from: 'capacity records: ESM-2 / DNABERT-S steady-state sequences per second (1000 / fitted ms per sequence)',
  },
  {
    pattern: 'capacity/<gpus>/perf01/<sequences>',
    unit: 'h',
    from: "capacity records: projected wall time at the production size (the verdict's, else stats.configurations[].at)",
  },
] as const

export const wallMetric = (setup: string) => `wall/${setup}`
export const energyMetric = (setup: string) => `energy/${setup}`
export const stageRateMetric = (setup: string, stage: string) => `rate/${setup}/${stage}`
export const capacityRateMetric = (gpus: number, stage: string) => `capacity/${gpus}/rate/${stage}`
/** The same id the capacity verdicts use (src/capacity/verdicts.ts), so the two sources name one series. */
export const capacityWallMetric = (gpus: number, sequences: number) => `capacity/${gpus}/perf01/${sequences}`

/** Units where less is better: times, energy, memory, counts of bad events, a time ratio B/A. */
const LOWER_UNITS = new Set([
  'ms',
  's',
  'min',
  'h',
  'J',
  'J/seq',
  'MiB',
  'MiB/batch',
  'GiB',
  '% of capacity',
  '% of run',
  'runs',
  'samples',
  'B/A',
])
/** Units where more is better: utilization, agreement, speedup. Rates (`<items>/s`, `<items>/h`) are matched below. */
const HIGHER_UNITS = new Set(['%', '% labels agree', 'x'])
const RATE = /^[A-Za-z][\w-]*\/(?:s|h|min)$/
const TIME_PER_ITEM = /^(?:ms|s|h|J)\/[A-Za-z][\w-]*$/

/**
 * Which way is better for a unit: time, energy and memory (`ms`, `h`, `J/seq`, `ms/seq`) lower; utilization, speedup
 * and rates (`%`, `x`, `seq/s`, `seq/h`) higher. null for a unit with no direction (`x typical`, a band; `sequences`,
 * a break-even size): such series are kept and shown, never judged.
 */
export function betterOf(unit: string | null): Better | null {
  if (unit === null) return null
  if (LOWER_UNITS.has(unit) || TIME_PER_ITEM.test(unit)) return 'lower'
  if (HIGHER_UNITS.has(unit) || RATE.test(unit)) return 'higher'
  return null
}

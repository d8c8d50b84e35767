/**
 * The forecast a first-ever invocation opens with (issue 57): each file of the gpu project priced before anything has
 * run, from its own plan (its runs and sizes, as its settings make them: benchmarks/support/file-plans.ts) and the cost
 * prior of this host's GPU kind (src/config/forecast-prior.ts); made in the global setup, plain data. Then refined as
 * the invocation goes: the files that ended say how far the prior was off here (their spans over their forecasts), and
 * the files not started are scaled by it. An earlier invocation of the same plan, where there is one, forecasts
 * instead (earlier-progress.ts): it ran here.
 */

/** What the prior says of one file. */
export type FilePrior =
  /** Its tests will skip (not asked for, no GPU count for them): it is not counted. */
  | { skip: string }
  | {
      /** ms it should take, or null where a part of it has no prior (`unknown` says which). */
      ms: number | null
      /** Pipeline runs it plans, warm-ups included. */
      runs: number
      unknown: string[]
      /**
       * Runs other files measure too (the same configuration and input): measured once an invocation, by the first
       * such file, the others get them back. Not in `ms` or `runs`.
       */
      shared?: { group: string; ms: number; runs: number }
      /** The most the capacity design may add beyond the planned runs (its budget's wall time): not in `ms`. */
      designMs?: number
    }

export interface PriorForecast {
  /** The kind the prior was looked up by: NVML's name of GPU 0, or `CPU` (VIRNUCPRO_BENCH_DEVICE=cpu); null: none. */
  kind: string | null
  /** Why the prior forecasts nothing here (a kind, scale or pipeline with no entry), or null. */
  missing: string | null
  files: Record<string, FilePrior>
}

export const willSkip = (prior: PriorForecast | null, file: string): string | null => {
  const p = prior?.files[file]
  return p && 'skip' in p ? p.skip : null
}

type Priced = Extract<FilePrior, { ms: number | null }>

/** The file of `files` that measures a shared group: the first that has it (the others get its runs back). */
function measuresShared(prior: PriorForecast, file: string, files: readonly string[]): boolean {
  const group = (prior.files[file] as Priced).shared?.group
  const first = files.find((f) => {
    const p = prior.files[f]
    return p !== undefined && !('skip' in p) && p.shared?.group === group
  })
  return group !== undefined && first === file
}

/** ms `file` should take by the prior, in an invocation of `files`, scaled by `ratio`; null where it has none. */
export function priorFileMs(
  prior: PriorForecast | null,
  file: string,
  files: readonly string[],
  ratio = 1,
): number | null {
  const p = prior?.files[file]
  if (!p || 'skip' in p) return p ? 0 : null
  if (p.ms === null) return null
  const shared = p.shared && measuresShared(prior!, file, files) ? p.shared.ms : 0
  return (p.ms + shared) * ratio
}

/** The most the capacity design of `file` may add by the prior, scaled by `ratio` (0 where it has none). */
export function priorDesignMs(prior: PriorForecast | null, file: string, ratio = 1): number {
  const p = prior?.files[file]
  return p && !('skip' in p) ? (p.designMs ?? 0) * ratio : 0
}

/** Runs `file` plans by the prior in an invocation of `files` (runs another file measures for it apart). */
export function priorFileRuns(prior: PriorForecast | null, file: string, files: readonly string[]): number {
  const p = prior?.files[file]
  if (!p || 'skip' in p) return 0
  return p.runs + (p.shared && measuresShared(prior!, file, files) ? p.shared.runs : 0)
}

/**
 * How far the prior was off on this host so far: the ended files' spans over what the prior forecast for them (1
 * until a file it forecast has ended). A file that took no time by the prior says nothing of it.
 */
export function priorRatio(
  prior: PriorForecast | null,
  spansMs: ReadonlyMap<string, number>,
  files: readonly string[],
): number {
  let forecast = 0
  let took = 0
  for (const [file, span] of spansMs) {
    const ms = priorFileMs(prior, file, files)
    if (ms === null || !(ms > 0)) continue
    forecast += ms
    took += span
  }
  return forecast > 0 && took > 0 ? took / forecast : 1
}

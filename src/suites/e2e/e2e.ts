/**
 * End-to-end suite (kind `e2e`): a typical-like sample measured and projected to the typical (45,000) and production
 * (6,000,000) sizes against PERF-01, throughput (seq/h) and whole-run utilization against their floors, large-sample
 * stability, and the optimization-impact matrix. `stats` has the shape E2eStats.
 */
import type { Thresholds } from '../../config/thresholds.ts'
import { completedRuns, type MeasuredConfiguration } from '../../engine/measure-configuration.ts'
import type { RunObservation } from '../../engine/observe-run.ts'
import type { ArmNotRun } from '../../engine/optimization-matrix/index.ts'
import { failureReason } from '../../engine/record.ts'
import { type EstimateStat, estimate, toStat } from '../../engine/stage-metrics.ts'
import { type SpeedupResult, speedup } from '../../measure/index.ts'
import { type ProjectionOutcome, projectRun } from './e2e-projection.ts'
import type { MatrixChecks } from './matrix-checks.ts'

export interface E2eStats {
  typical: {
    configuration: string
    sequences: number | null
    measuredRuns: number
    wallMs: EstimateStat | null
    sequencesPerHour: EstimateStat | null
    /** Whole-run mean utilization over the requested GPUs, %. */
    utilPct: EstimateStat | null
    projection: ProjectionOutcome
    /** The first run that did not complete (record.ts failureReason); null when none failed. */
    failure: string | null
  }
  large: {
    configuration: string
    sequences: number | null
    runs: number
    /** Measured runs that completed. */
    completedRuns: number
    oomRuns: number
    throttledSamples: number
    /** Whole-run seq/s (start-up included, so a larger sample is faster per sequence by construction). */
    sequencesPerS: EstimateStat | null
    /** Large-sample whole-run seq/s over the typical sample's. */
    ratioToTypical: number | null
    /** ESM-2 inference tokens/s (the pipeline's `Async inference complete` lines, summed over workers). */
    esm2TokensPerS: EstimateStat | null
    /** Large-sample ESM-2 tokens/s over the typical sample's: what the stability verdict judges. */
    esm2RatioToTypical: number | null
    failure: string | null
  } | null
  matrix: {
    /** The baseline's label; null when no arm was measured (every switch left out here: `notRun`). */
    baseline: string | null
    /** Why the baseline's runs do not show its switches off (then no arm is compared with it); null when they do. */
    baselineRefused: string | null
    /**
     * `failure`: why the arm or the baseline has no completed run, when one of them failed. `refused`: why its runs do
     * not show its switches (or the baseline's), so its time is no measure of them and it gets no speedup.
     */
    arms: {
      label: string
      wallMs: EstimateStat | null
      speedup: SpeedupResult | null
      failure: string | null
      refused: string | null
    }[]
    /** Switches no path of the pipeline reads on these GPUs: their arms were not run, each with why. */
    notRun: ArmNotRun[]
  } | null
}

export interface E2eInput {
  typical: MeasuredConfiguration
  large?: MeasuredConfiguration | null
  /** Baseline first, then each optimization, then all together. */
  matrix?: readonly MeasuredConfiguration[] | null
  /** The matrix's arms left out before running, and those refused after (matrix-checks.ts). */
  matrixChecks?: MatrixChecks | null
}

const sequencesOf = (o: RunObservation) => o.measured.run.summary?.sequencesProcessed ?? null
const perSecond = (o: RunObservation) => {
  const n = sequencesOf(o)
  return n && o.measured.run.wallMs > 0 ? (n * 1000) / o.measured.run.wallMs : null
}

/**
 * ESM-2 inference tokens/s of one run: its `Async inference complete` lines, summed over workers (null without one).
 * Stability is about the work that scales (does a large sample slow the GPU down: memory growth, fragmentation,
 * throttling?). Whole-run seq/s also carries the fixed start-up, which a larger sample amortizes, and seq/s depends on
 * the length mix (LARGE and TYPICAL presets differ); tokens/s of the inference loop has neither bias.
 */
function esm2TokensPerS(o: RunObservation): number | null {
  let sum = 0
  for (const c of o.esm2Completions) {
    if (c.tokensPerS === null) return null
    sum += c.tokensPerS
  }
  return o.esm2Completions.length > 0 && sum > 0 ? sum : null
}

function wholeRunUtil(o: RunObservation): number | null {
  const gpus = o.measured.gpu?.gpus.filter((g) => g.requested && g.metrics.utilPct) ?? []
  return gpus.length === 0 ? null : gpus.reduce((sum, g) => sum + g.metrics.utilPct!.mean, 0) / gpus.length
}

/** The run with the median wall time (the lower middle of an even count): the run the suite projects. */
export function medianRun(runs: readonly RunObservation[]): RunObservation | undefined {
  const sorted = [...runs].sort((a, b) => a.measured.run.wallMs - b.measured.run.wallMs)
  return sorted[Math.floor((sorted.length - 1) / 2)]
}

function typicalStats(m: MeasuredConfiguration, t: Thresholds): E2eStats['typical'] {
  const runs = completedRuns(m)
  const chosen = medianRun(runs)
  return {
    configuration: m.config.label,
    sequences: chosen ? sequencesOf(chosen) : null,
    measuredRuns: runs.length,
    wallMs: toStat(
      estimate(
        runs.map((o) => o.measured.run.wallMs),
        'e2e wallMs',
      ),
    ),
    sequencesPerHour: toStat(
      estimate(
        runs.map((o) => (perSecond(o) ?? Number.NaN) * 3600),
        'e2e seq/h',
      ),
    ),
    utilPct: toStat(estimate(runs.map(wholeRunUtil), 'e2e utilPct')),
    projection: chosen
      ? projectRun(chosen, t, `e2e/${m.config.label}`)
      : { state: 'not-projected', reason: 'no completed run' },
    failure: failureReason([m]),
  }
}

interface TypicalRates {
  wholeRunSeqPerS: number | null
  esm2TokensPerS: number | null
}

function largeStats(m: MeasuredConfiguration | null | undefined, typical: TypicalRates): E2eStats['large'] {
  if (!m) return null
  const measured = m.observations.filter((o) => !o.measured.warmup)
  const rate = estimate(completedRuns(m).map(perSecond), 'large seq/s')
  const tokens = estimate(completedRuns(m).map(esm2TokensPerS), 'large ESM-2 tok/s')
  return {
    configuration: m.config.label,
    sequences: measured[0] ? sequencesOf(measured[0]) : null,
    runs: measured.length,
    completedRuns: completedRuns(m).length,
    oomRuns: measured.filter((o) => o.measured.run.exitClass === 'oom' || o.measured.run.sawOom).length,
    throttledSamples: measured.reduce(
      (sum, o) => sum + (o.measured.gpu?.flags.throttled.reduce((s, f) => s + f.samples, 0) ?? 0),
      0,
    ),
    sequencesPerS: toStat(rate),
    ratioToTypical: rate && typical.wholeRunSeqPerS ? rate.median / typical.wholeRunSeqPerS : null,
    esm2TokensPerS: toStat(tokens),
    esm2RatioToTypical: tokens && typical.esm2TokensPerS ? tokens.median / typical.esm2TokensPerS : null,
    failure: failureReason([m]),
  }
}

function matrixStats(
  arms: readonly MeasuredConfiguration[] | null | undefined,
  checks: MatrixChecks | null | undefined,
): E2eStats['matrix'] {
  const notRun = [...(checks?.notRun ?? [])]
  if (!arms || arms.length < 2)
    return notRun.length > 0 ? { baseline: null, baselineRefused: null, arms: [], notRun } : null
  const refused = checks?.refused ?? new Map<string, string>()
  const baselineLabel = arms[0]!.config.label
  const baselineRefused = refused.get(baselineLabel) ?? null
  const base = completedRuns(arms[0]!).map((o) => o.measured.run.wallMs)
  return {
    baseline: baselineLabel,
    baselineRefused,
    arms: arms.slice(1).map((arm) => {
      const times = completedRuns(arm).map((o) => o.measured.run.wallMs)
      // Only an arm with completed runs is refused: one without any has its failure for a verdict.
      const why =
        times.length === 0
          ? null
          : (refused.get(arm.config.label) ??
            (baselineRefused === null ? null : `its baseline '${baselineLabel}' was refused (${baselineRefused})`))
      // Speedup over the baseline; an optimization passes when its whole CI is at or above 1x (never slower). An arm
      // whose runs do not show its switches (or whose baseline's do not) measured something else: no speedup.
      const result =
        base.length > 0 && times.length > 0 && why === null
          ? speedup(base, times, 1, { band: { low: 1, high: Number.MAX_VALUE } })
          : null
      return {
        label: arm.config.label,
        wallMs: toStat(estimate(times, `${arm.config.label} wallMs`)),
        speedup: result,
        failure: failureReason([arms[0]!, arm]),
        refused: why,
      }
    }),
    notRun,
  }
}

/** Gathers the e2e figures. */
export function e2eStats(input: E2eInput, t: Thresholds): E2eStats {
  const typical = typicalStats(input.typical, t)
  const runs = completedRuns(input.typical)
  const rates: TypicalRates = {
    wholeRunSeqPerS: estimate(runs.map(perSecond), 'typical seq/s')?.median ?? null,
    esm2TokensPerS: estimate(runs.map(esm2TokensPerS), 'typical ESM-2 tok/s')?.median ?? null,
  }
  return {
    typical,
    large: largeStats(input.large, rates),
    matrix: matrixStats(input.matrix, input.matrixChecks),
  }
}

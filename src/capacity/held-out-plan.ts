/**
 * Which size the held-out check runs (issue 48), and the GPU-minutes the design keeps for it. The check is the one
 * run a projection is judged by, so the design's budget keeps room for its cheapest size before any top-up (as the
 * planned runs project it); once the design stops, the first size of the plan's preference (the user's whole sample,
 * then the next size up: capacity/structure.ts) that the GPU-minutes left afford is run, and where none is, the
 * record says so and the answer cannot read FINAL.
 */
import type { Thresholds } from '../config/thresholds.ts'
import type { SuiteContext } from '../engine/context.ts'
import type { ResolvedInput } from '../input/resolver.ts'
import { analyzeCapacity, type ConfigMeasurements, PLAIN_ANALYSIS, sequenceEquivalents } from './analyze.ts'
import type { HeldOut } from './held-out.ts'

/** What the check runs at, or why none; `input` only while the suite runs (the record keeps records and why). */
export interface HeldOutChoice {
  records: number | null
  why: string
  input?: ResolvedInput
  /** Once run: the GPU counts it ran on, and those whose runs failed with the failure's line (held-out-status.ts). */
  gpuCounts?: number[]
  failed?: { gpuCount: number; reason: string }[]
  /** None was run because the job limit left no time for it (the next invocation of the same command runs it). */
  jobLimit?: true
}

const LOOK = { ...PLAIN_ANALYSIS, answerFigures: false }
const count = (x: number) => Math.round(x).toLocaleString('en-US')
const seconds = (ms: number) => `${Math.max(0, Math.round(ms / 1000))} s`

/** GPU-minutes the runs so far took (each run's wall time x the GPUs its configuration holds), warm-ups included. */
export const spentGpuMinutes = (measured: readonly ConfigMeasurements[]) =>
  measured.reduce(
    (a, c) =>
      a + c.bySize.reduce((b, m) => b + m.observations.reduce((x, o) => x + o.measured.run.wallMs, 0), 0) * c.gpuCount,
    0,
  ) / 60_000

/** GPU-minutes held-out runs took: each one's median wall time x its runs x the GPUs its configuration holds. */
export const heldOutGpuMinutes = (heldOut: readonly Pick<HeldOut, 'medianWallMs' | 'runs' | 'gpuCount'>[]) =>
  heldOut.reduce((a, h) => a + (h.medianWallMs * h.runs * h.gpuCount) / 60_000, 0)

/**
 * GPU-minutes `runs` runs at `sequences` take on each configuration of `gpuCounts`, as the runs so far project them
 * (the estimate, not the interval's high end: a look's intervals at 6 M are wide, at 2-4x the largest size not), and
 * the wall time they take one after another. Null where some configuration has no fit.
 */
function projectedCost(
  measured: readonly ConfigMeasurements[],
  inputs: readonly ResolvedInput[],
  t: Thresholds,
  gpuCounts: readonly number[],
  sequences: number,
  runs: number,
): { gpuMinutes: number; wallMs: number } | null {
  const { stats } = analyzeCapacity(measured, inputs, t, [sequences], LOOK)
  let gpuMinutes = 0
  let wallMs = 0
  for (const k of gpuCounts) {
    const at = stats.configurations.find((c) => c.gpuCount === k)?.at.find((a) => a.sequences === sequences)
    if (!at) return null
    gpuMinutes += (at.wallMs.estimate * k * runs) / 60_000
    wallMs += at.wallMs.estimate * runs
  }
  return { gpuMinutes, wallMs }
}

/** The sizes to hold out that lie above the largest fitted one and within what the source holds, in order. */
function candidates(largest: ResolvedInput, limit: number, records: readonly number[] | undefined): number[] {
  const asked = records ?? (Number.isFinite(limit) ? [limit] : [])
  return asked.filter((r) => r > largest.records && r <= limit)
}

/** Sequences of `records` of the largest size's source, read from the largest size's work per record. */
const sequencesAt = (largest: ResolvedInput, records: number) =>
  records * (sequenceEquivalents(largest) / largest.records)

/**
 * What the design keeps for the check: its cheapest size's runs, as the planned runs project them, in GPU-minutes (of
 * the budget) and wall ms (of the job limit); none where no size can be held out.
 */
export function heldOutReserve(
  measured: readonly ConfigMeasurements[],
  inputs: readonly ResolvedInput[],
  t: Thresholds,
  gpuCounts: readonly number[],
  direct: { runs: number; records?: readonly number[] },
): { gpuMinutes: number; wallMs: number } {
  const largest = inputs.at(-1)!
  const limit = largest.source.source === 'user' ? largest.source.records : Number.POSITIVE_INFINITY
  const sizes = candidates(largest, limit, direct.records)
  if (sizes.length === 0) return { gpuMinutes: 0, wallMs: 0 }
  const cheapest = Math.min(...sizes)
  return (
    projectedCost(measured, inputs, t, gpuCounts, sequencesAt(largest, cheapest), direct.runs) ?? {
      gpuMinutes: 0,
      wallMs: 0,
    }
  )
}

/**
 * The size the check runs at: the first of the preference the GPU-minutes left afford (`budgetGpuMinutes` 0: none
 * beyond the planned runs, so no check), made by the input resolver; or none, and why.
 */
export async function heldOutChoice(
  ctx: SuiteContext,
  measured: readonly ConfigMeasurements[],
  inputs: readonly ResolvedInput[],
  gpuCounts: readonly number[],
  direct: { runs: number; records?: readonly number[] },
  budgetGpuMinutes: number,
  /**
   * The GPU-minutes the design kept for the check (heldOutReserve): where the design stayed within the rest, the
   * cheapest size is run even if it now projects dearer than what is left (the runs since may have moved its
   * projection; issue 58: 0.1 GPU-min left of a reserve the design never touched, the check not run).
   */
  reserveGpuMinutes = 0,
  /** ms the job limit leaves now (VIRNUCPRO_BENCH_JOB_LIMIT_S less what the invocation keeps after); absent: no limit. */
  timeLeftMs?: number,
): Promise<HeldOutChoice> {
  const resolver = ctx.inputs
  const largest = inputs.at(-1)!
  if (!resolver?.resize || !resolver.sizeLimit)
    return { records: null, why: 'no held-out run: the input resolver cannot make a size above the fitted ones' }
  const limit = resolver.sizeLimit(largest)
  const sizes = candidates(largest, limit, direct.records)
  if (sizes.length === 0)
    return {
      records: null,
      why: `no held-out run: no size above the largest fitted one (${count(largest.records)} records) within the sample (${count(limit)} records)`,
    }
  const spent = spentGpuMinutes(measured)
  const left = budgetGpuMinutes - spent
  const owed = reserveGpuMinutes > 0 && spent <= budgetGpuMinutes - reserveGpuMinutes + 1e-9
  const cheapest = Math.min(...sizes)
  const costs: string[] = []
  let cutMs: number | null = null
  for (const records of sizes) {
    const projected = projectedCost(
      measured,
      inputs,
      ctx.thresholds,
      gpuCounts,
      sequencesAt(largest, records),
      direct.runs,
    )
    const cost = projected?.gpuMinutes ?? null
    const affordable = budgetGpuMinutes > 0 && cost !== null && (cost <= left + 1e-9 || (owed && records === cheapest))
    // Within the budget but not the job limit: the next invocation runs it (the record is not an answer until then).
    if (affordable && timeLeftMs !== undefined && projected!.wallMs > timeLeftMs) {
      cutMs ??= projected!.wallMs
      continue
    }
    if (affordable) {
      const input = await resolver.resize(largest, records)
      const whole =
        records === limit
          ? "the user's whole sample"
          : Number.isFinite(limit)
            ? 'the next size up (the whole sample would not fit the budget)'
            : 'a generated size above the fitted ones'
      return {
        records,
        input,
        why: `Held out ${count(records)} records, ${whole}: about ${cost.toFixed(1)} GPU-min of the ${Math.max(0, left).toFixed(1)} left${cost > left + 1e-9 ? ' (the GPU-minutes the design kept for the check)' : ''}`,
      }
    }
    costs.push(`${count(records)} records about ${cost === null ? '?' : cost.toFixed(1)} GPU-min`)
  }
  if (cutMs !== null)
    return {
      records: null,
      jobLimit: true,
      why: `no held-out run yet: the job limit (VIRNUCPRO_BENCH_JOB_LIMIT_S) leaves ${seconds(timeLeftMs!)} and the check takes about ${seconds(cutMs)}; the same command again runs it`,
    }
  // A budget of nothing beyond the planned runs (VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN at its least) runs no check
  // either: its GPU time was not given, and the answer says what it would cost (issue 58).
  const room =
    budgetGpuMinutes > 0
      ? `${Math.max(0, left).toFixed(1)} of the budget's ${Number(budgetGpuMinutes.toFixed(1))} GPU-min left`
      : `the budget leaves no GPU-minutes beyond the planned runs (${spent.toFixed(1)} GPU-min)`
  return {
    records: null,
    why: `no held-out run: ${room}, and ${costs.join(', ')}; give a larger VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN`,
  }
}

/**
 * The GPU counts the held-out check runs on, of those measured: `asked` (VIRNUCPRO_BENCH_CAPACITY_DIRECT), else every
 * one; and, where some asked count is not measured here (a 1-GPU host asked for 2), the line that says so (issue 47:
 * such a count was dropped without a word).
 */
export function heldOutGpuCounts(
  measured: readonly number[],
  asked: readonly number[] | undefined,
): { gpuCounts: number[]; note: string | null } {
  if (!asked || asked.length === 0) return { gpuCounts: [...measured], note: null }
  const gpuCounts = measured.filter((k) => asked.includes(k))
  const missing = asked.filter((k) => !measured.includes(k))
  return {
    gpuCounts,
    note:
      missing.length === 0
        ? null
        : `capacity held-out check: VIRNUCPRO_BENCH_CAPACITY_DIRECT=${asked.join(',')}: ${missing.join(' and ')} GPU(s) not measured here (measured: ${measured.join(', ')}), so no held-out run for ${missing.length === 1 ? 'it' : 'them'}${gpuCounts.length > 0 ? `; held out on ${gpuCounts.join(' and ')} GPU(s)` : '; none held out: the answer cannot read FINAL'}`,
  }
}

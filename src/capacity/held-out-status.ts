/**
 * Where the held-out checks leave a stopped answer (issue 58): the one function every reader's status goes through
 * (capacity/answer.ts capacityAnswer: the suite's console and record, `report`, `capacity` text and JSON, summary.md,
 * the HTML, a study's capacity answers), so one directory tells one story whichever command reads it.
 *
 * - `missed`: some configuration's run at a size its fit never saw fell outside the projected interval; every question
 *   of that GPU count is undecided (capacityAnswer), the answer reads UNDECIDED.
 * - `inside`: every fitted configuration has a run above its largest fitted size, inside the projected interval: the
 *   only way to FINAL.
 * - `unchecked`: anything else, whatever the path that led there (no design, a budget too small for the check, a record
 *   written before held-out checks, a GPU count VIRNUCPRO_BENCH_CAPACITY_DIRECT left out, a held-out run that failed,
 *   a size left out of a refit that lies within the fitted ones). Each configuration without a check says why and
 *   what would give it one.
 */
import type { CapacityStats } from './analyze.ts'
import { type HeldOutCheck, missedChecks } from './held-out.ts'

export type HeldOutState = 'inside' | 'missed' | 'unchecked'

/** Why one configuration has no check that counts, and what would give it one. */
export interface UncheckedReason {
  label: string
  gpuCount: number
  why: string
  fix: string
}

export interface HeldOutStatus {
  state: HeldOutState
  /** Per fitted configuration without a check inside (empty unless `unchecked`). */
  unchecked: UncheckedReason[]
}

const count = (n: number) => Math.round(n).toLocaleString('en-US')

/** The stats a status is read from: the record's (or a refit's) figures, checks and the measurement's own account. */
export type StatusStats = Pick<CapacityStats, 'configurations' | 'direct' | 'sizeChoice' | 'sequential'> & {
  joinedHeldOut?: number
  /** The capacity record this was read from kept no held-out plan nor design (written before issue 48). */
  predates?: boolean
}

/** The sequences of the largest size a configuration's fit saw (a missed size it joined after its check is not one). */
function largestFitted(c: StatusStats['configurations'][number], joined: number | undefined): number {
  const fitted = c.sizes.filter((s) => joined === undefined || s.records !== joined)
  return Math.max(0, ...fitted.map((s) => s.sequences))
}

/** Whether a check is one FINAL can rest on: above the configuration's fitted sizes, judged against an interval. */
const countsFor = (check: HeldOutCheck, largest: number) => check.sequences > largest * (1 + 1e-9)

/** Why the measurement ran no check, and its fix, read from what it recorded (the suite's held-out choice). */
function recordedReason(stats: StatusStats, gpuCount: number): { why: string; fix: string } {
  const choice = stats.sizeChoice?.heldOut
  if (choice && choice.records !== null) {
    // A size was chosen, so this GPU count had none of its own: left out by VIRNUCPRO_BENCH_CAPACITY_DIRECT, or its run failed.
    const failed = choice.failed?.find((f) => f.gpuCount === gpuCount)
    if (failed)
      return {
        why: `its held-out run of ${count(choice.records)} records failed: ${failed.reason}`,
        fix: 'the failure above fixed, the same command again (it measures only the held-out run)',
      }
    if (choice.gpuCounts && !choice.gpuCounts.includes(gpuCount))
      return {
        why: `no held-out run on ${gpuCount} GPU${gpuCount === 1 ? '' : 's'}: VIRNUCPRO_BENCH_CAPACITY_DIRECT left it out`,
        fix: `VIRNUCPRO_BENCH_CAPACITY_DIRECT naming ${gpuCount}, then the same command again`,
      }
    return {
      why: `no completed held-out run at ${count(choice.records)} records`,
      fix: 'the same command again: it measures the held-out run it lacks',
    }
  }
  if (choice?.jobLimit)
    return {
      why: choice.why,
      fix: 'the same command again: it goes on where the job limit stopped this invocation and runs the check',
    }
  if (choice) {
    const why = choice.why.replace(/^no held-out run: /, '')
    const budget = /budget/.test(why)
    return {
      why: `no held-out run: ${why.replace(/; give a larger VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN$/, '')}`,
      fix: budget
        ? 'a larger VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN (the same command again continues and runs the check)'
        : 'a sample larger than the fitted sizes (VIRNUCPRO_BENCH_INPUT), or smaller VIRNUCPRO_BENCH_SIZES below it',
    }
  }
  if (stats.predates || (!stats.sizeChoice && !stats.sequential))
    return {
      why: 'no held-out run: the measurement ran no held-out check (a record written before them, or judged once with no design)',
      fix: "measure again with today's suite, or refit it with its largest size left out as a check (`virnucpro-bench capacity DIR --sizes` naming the smaller ones)",
    }
  return {
    why: 'no held-out run: the measurement recorded none',
    fix: 'the same command again with a budget that affords the check (VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN)',
  }
}

/** Why this configuration's checks do not count, where it has some, else the measurement's reason. */
function uncheckedReason(
  stats: StatusStats,
  c: StatusStats['configurations'][number],
  checks: readonly HeldOutCheck[],
): UncheckedReason {
  const largest = largestFitted(c, stats.joinedHeldOut)
  const own = checks.filter((h) => h.gpuCount === c.gpuCount)
  const above = own.filter((h) => countsFor(h, largest))
  const base = { label: c.label, gpuCount: c.gpuCount }
  if (above.some((h) => h.insideCi === null))
    return {
      ...base,
      why: `its held-out run of ${count(above[0]!.records)} records has no projected interval to fall in (the fit gives none there)`,
      fix: 'more runs at the fitted sizes, so the projection has an interval',
    }
  if (own.length > 0)
    return {
      ...base,
      why: `the run${own.length === 1 ? '' : 's'} left out of the fit (${own.map((h) => count(h.records)).join(', ')} records) lie${own.length === 1 ? 's' : ''} within the fitted sizes (up to ${count(largest)} sequences): a check needs a size above them`,
      fix: 'a refit whose fitted sizes lie below a measured one (`--sizes`), or a held-out run above them',
    }
  return { ...base, ...recordedReason(stats, c.gpuCount) }
}

/**
 * Where the checks leave a stopped answer: missed if any fitted configuration's check missed, inside if every fitted
 * configuration has one inside above its fitted sizes, else unchecked with each configuration's reason. With no
 * configuration fitted there is nothing a check could hold: unchecked, said so.
 */
export function heldOutStatus(stats: StatusStats): HeldOutStatus {
  const checks = stats.direct ?? []
  const fitted = stats.configurations
  if (missedChecks(checks.filter((h) => fitted.some((c) => c.gpuCount === h.gpuCount))).size > 0)
    return { state: 'missed', unchecked: [] }
  const unchecked = fitted.flatMap((c) => {
    const largest = largestFitted(c, stats.joinedHeldOut)
    const held = checks.some((h) => h.gpuCount === c.gpuCount && h.insideCi === true && countsFor(h, largest))
    return held ? [] : [uncheckedReason(stats, c, checks)]
  })
  if (fitted.length === 0)
    return {
      state: 'unchecked',
      unchecked: [
        {
          label: 'every configuration',
          gpuCount: 0,
          why: 'no configuration could be fitted, so no projection could be checked',
          fix: 'runs at two or more sizes that complete',
        },
      ],
    }
  return unchecked.length === 0 ? { state: 'inside', unchecked: [] } : { state: 'unchecked', unchecked }
}

/** `1 GPU: no held-out run: ...; to check it: ...`: one reason as every output says it. */
export const uncheckedLine = (u: UncheckedReason) => `UNCHECKED, ${u.label}: ${u.why}; to check it: ${u.fix}`

/**
 * The capacity answer's verdicts in scope, decided: what a planner asks before a 6 M run, each judged on its interval
 * at the look's level (config/capacity-targets.ts DECISION: Bonferroni over the design's looks) against its threshold,
 * with an indifference zone around it:
 * - PERF-01 at the typical (45 K) and the production (6 M) size, per GPU count: the wall time <= 10 h;
 * - k GPUs against 1 at 6 M: the speedup (1-GPU wall time over k-GPU wall time, same input) >= PERF-03's 1.9x for 2
 *   GPUs (upstream's target), the low end of the scaling band for other counts (4 GPUs 3.0x);
 * - PERF-02 per GPU stage at 6 M, per GPU count: its projected utilization >= 80%.
 * Each reads `pass`, `fail`, `at-threshold` (the interval wholly within +-margin of the threshold) or `undecided`.
 *
 * What a PASS (or "at threshold") needs besides its interval, because a projection far beyond the measured sizes can
 * be confidently wrong where the model misses a regime: three sizes and a lack-of-fit test that finds a line; each GPU
 * worker given the pipeline's batching threshold at the largest size (capacity targets' `batching`); builds per file
 * counted (no lower-bound projection). A FAIL needs none of them where the model's support holds: each only adds time.
 * A configuration whose runs cannot support a projection (capacity/support.ts: a measured size the model misses, a
 * part negative, not a line) decides nothing but a FAIL on a lower bound; one whose only problem is a per-sequence
 * cost known too roughly decides from its interval, which is as wide as that makes it.
 */
import type { CapacityTargets } from '../config/capacity-targets.ts'
import type { Thresholds } from '../config/thresholds.ts'
import { type DecisionState, type Direction, decideInterval } from '../measure/index.ts'
import type { Verdict } from '../results/schema/index.ts'
import type { ComparisonCapacity } from './compare.ts'
import { SETTLE_CLAUSE } from './held-out.ts'
import type { ConfigCapacity } from './model.ts'

export interface DecisionQuestion {
  /** The verdict it decides (capacity/verdicts.ts). */
  id: string
  /** In words: `PERF-01, 2 GPUs, 6,000,000 sequences`. */
  question: string
  kind: 'time' | 'speedup' | 'utilization'
  gpuCount: number
  sequences: number
  stage: string | null
  direction: Direction
  threshold: number
  unit: 'h' | 'x' | '%'
  /** The GPU counts whose runs it is read from (a speedup: 1 and k): whose preconditions a PASS needs. */
  from: number[]
}

export interface Decision extends DecisionQuestion {
  estimate: number | null
  ci: { low: number; high: number; level: number } | null
  state: DecisionState
  /** Why it stands where it does, in one sentence. */
  why: string
  /** For an undecided one once the design stopped: what would decide it (capacity/decide-design.ts); else null. */
  needs: string | null
  /**
   * For an undecided one, what would decide it in general, read from why it is undecided (a third size, runs that
   * narrow the interval, a fit that holds beyond its sizes): what the answer says where no design costed it (`needs`).
   * Absent on decided ones and in records written before issue 44.
   */
  decideBy?: string
}

export interface DecisionOptions {
  margin: number
  batching: CapacityTargets['batching']
  /** What would decide each question still open when the design stopped, by verdict id (capacity/topup.ts). */
  needs?: ReadonlyMap<string, string>
  /**
   * Per GPU count whose size model missed its held-out check, why (capacity/held-out.ts missedChecks): every question
   * read from it stays undecided, whatever its interval says: the interval is the model's, and the model missed.
   */
  missed?: ReadonlyMap<number, string>
}

const count = (n: number) => Math.round(n).toLocaleString('en-US')
const gpus = (k: number) => `${k} GPU${k === 1 ? '' : 's'}`

/** The verdicts in scope for these configurations and comparisons, and their thresholds. */
export function decisionScope(
  configs: readonly ConfigCapacity[],
  comparisons: readonly ComparisonCapacity[],
  t: Thresholds,
): DecisionQuestion[] {
  const [typical, production] = [t.perf01.typicalSequences, t.perf01.productionSequences]
  const time = configs.flatMap((c) =>
    [typical, production].map(
      (sequences): DecisionQuestion => ({
        id: `capacity/${c.gpuCount}/perf01/${sequences}`,
        question: `PERF-01, ${gpus(c.gpuCount)}, ${count(sequences)} sequences`,
        kind: 'time',
        gpuCount: c.gpuCount,
        sequences,
        stage: null,
        direction: 'at-most',
        threshold: t.perf01.targetMs / 3_600_000,
        unit: 'h',
        from: [c.gpuCount],
      }),
    ),
  )
  const speedup = comparisons.map(
    (cmp): DecisionQuestion => ({
      id: `capacity/${cmp.gpuCount}/speedup/${production}`,
      question: `${cmp.gpuCount} GPUs against 1, ${count(production)} sequences`,
      kind: 'speedup',
      gpuCount: cmp.gpuCount,
      sequences: production,
      stage: null,
      direction: 'at-least',
      threshold: speedupThreshold(cmp.gpuCount, t),
      unit: 'x',
      from: [1, cmp.gpuCount],
    }),
  )
  // A stage the monitor saw: without its busy time there is no utilization to project (the report says so).
  const utilization = configs.flatMap((c) =>
    c.stages
      .filter((s) => s.utilAt.length > 0)
      .map(
        (s): DecisionQuestion => ({
          id: `capacity/${c.gpuCount}/perf02/${s.stage}/${production}`,
          question: `PERF-02 ${s.stage}, ${gpus(c.gpuCount)}, ${count(production)} sequences`,
          kind: 'utilization',
          gpuCount: c.gpuCount,
          sequences: production,
          stage: s.stage,
          direction: 'at-least',
          threshold: t.perf02.minUtilPct,
          unit: '%',
          from: [c.gpuCount],
        }),
      ),
  )
  return [...time, ...speedup, ...utilization]
}

/** k GPUs against 1: PERF-03's target for its GPU count (2: 1.9x), else the scaling band's low end, else 1x. */
export function speedupThreshold(gpuCount: number, t: Thresholds): number {
  if (gpuCount === t.perf03.gpus) return t.perf03.minSpeedup
  return t.scalingBands[String(gpuCount)]?.[0] ?? 1
}

/**
 * What a configuration still lacks for a PASS (see the file's comment), in words; empty when it lacks nothing.
 * Unsupported runs are another matter (decideQuestion): they decide nothing either way.
 */
export function passPreconditions(c: ConfigCapacity, batching: CapacityTargets['batching']): string[] {
  const missing: string[] = []
  const sizes = c.sizes.length
  if (sizes < 3 || !c.support.lineFit) missing.push(`three sizes for the lack-of-fit test (${sizes} measured)`)
  if (batching && c.gpuCount >= batching.fromGpus) {
    const items = c.workerItems?.[batching.stage]
    if (items === undefined)
      missing.push(`each ${batching.stage} worker's share read from its progress lines (none logged one)`)
    else if (items < batching.itemsPerWorker)
      missing.push(
        `each ${batching.stage} worker given ${count(batching.itemsPerWorker)} sequences at the largest size, where the pipeline starts packing batches (the fewest got ${count(items)})`,
      )
  }
  if (c.support.lowerBound)
    missing.push('builds per file counted (the projection holds one build where production pays many)')
  return missing
}

const shown = (e: number, unit: string) =>
  `${e.toFixed(unit === 'h' ? 2 : unit === 'x' ? 2 : 1)}${unit === '%' ? '%' : ` ${unit}`}`

/** What settles a size model that missed its held-out check: what the miss's own words say (held-out.ts missedChecks). */
const settleOf = (missed: string) =>
  missed.split(SETTLE_CLAUSE)[1] ??
  'a fit that holds beyond its sizes: fit sizes up to the held-out one and hold out a larger one, or run the size you plan directly'

/** What would let unsupported runs support a projection: the size each configuration's support names, else more runs. */
function supportingRuns(unsupported: readonly ConfigCapacity[]): string {
  const next = unsupported.flatMap((c) =>
    c.support.nextRecords ? [`${c.label}: measure ${count(c.support.nextRecords)} records next`] : [],
  )
  return next.length > 0 ? next.join('; ') : 'runs whose wall times support a projection (the problems above say what)'
}

/** One question decided from its verdict (value and CI at the analysis level) and its configurations' support. */
function decideQuestion(
  q: DecisionQuestion,
  v: Verdict | undefined,
  configs: readonly ConfigCapacity[],
  o: DecisionOptions,
): Decision {
  const base = { ...q, estimate: v?.value ?? null, ci: v?.ci ?? null, needs: null }
  const undecided = (why: string, decideBy: string): Decision => ({ ...base, state: 'undecided', why, decideBy })
  if (!v || v.value === null)
    return undecided(`not measured: ${v?.detail ?? 'no figure for it in these runs'}`, 'runs that give it a figure')
  const missed = q.from.flatMap((k) => o.missed?.get(k) ?? [])
  if (missed.length > 0) return undecided(missed.join(' | '), settleOf(missed[0]!))
  const from = configs.filter((c) => q.from.includes(c.gpuCount))
  // A model that holds but is imprecise decides from its (wide) interval; any other problem decides nothing.
  const unsupported = from.filter((c) => !c.support.supported && !c.support.precisionOnly)
  // A lower bound above the limit is a FAIL whatever else is missing (capacity/verdicts.ts lowerBoundFail).
  if (v.verdict === 'fail' && unsupported.length > 0 && unsupported.every((c) => c.support.lowerBound))
    return { ...base, state: 'fail', why: 'its interval on a lower bound already lies beyond the threshold' }
  if (unsupported.length > 0)
    return undecided(
      `the runs cannot support a projection: ${unsupported.map((c) => `${c.label}: ${c.support.problems.join('; ')}`).join(' | ')}`,
      supportingRuns(unsupported),
    )
  if (!v.ci)
    return undecided(
      'no interval (a size of one run, or one without a finite end)',
      'two or more completed runs at each of two sizes',
    )
  // A time or a speedup is never below zero: an interval that reaches there (held at 0) is the model's misfit being
  // larger than the projection itself, never a verdict (issue 58: FINAL at 23.3 h [0.0, 8743.1]).
  if (q.kind !== 'utilization' && v.ci.low <= 0 && (v.value ?? 0) > 0)
    return undecided(
      `${shown(v.value, q.unit)} [${shown(v.ci.low, q.unit)}, ${shown(v.ci.high, q.unit)}]: its interval reaches below zero, where no ${q.kind === 'time' ? 'time' : 'speedup'} lies: the model's error out of sample is larger than the projection, a misfit and not a verdict`,
      'fitted sizes closer to the target (a larger sample), or more runs at the largest size',
    )
  const state = decideInterval(v.ci, q.threshold, q.direction, o.margin)
  const where = `${shown(v.value, q.unit)} [${shown(v.ci.low, q.unit)}, ${shown(v.ci.high, q.unit)}] against ${q.direction === 'at-most' ? '<=' : '>='} ${shown(q.threshold, q.unit)}`
  if (state === 'fail') return { ...base, state, why: `${where}: the whole interval is on the failing side` }
  if (state === 'undecided')
    return undecided(
      `${where}: the interval straddles the threshold`,
      'more runs at the largest size, or a larger size, until the interval lies on one side of the threshold',
    )
  const lacking = from.flatMap((c) => passPreconditions(c, o.batching).map((m) => ({ label: c.label, m })))
  if (lacking.length > 0)
    return undecided(
      `${where} would read ${state === 'pass' ? 'PASS' : 'at threshold'}, but ${state === 'pass' ? 'a PASS' : 'that'} needs ${lacking.map((l) => `${l.label}: ${l.m}`).join('; ')}`,
      `runs that give ${lacking.map((l) => `${l.label} ${l.m}`).join('; ')}`,
    )
  return state === 'pass'
    ? { ...base, state, why: `${where}: the whole interval is on the passing side` }
    : { ...base, state, why: `${where}: the interval lies within +-${(o.margin * 100).toFixed(0)}% of the threshold` }
}

/** Every question in scope decided from the analysis's verdicts and figures. */
export function decideCapacity(
  configs: readonly ConfigCapacity[],
  comparisons: readonly ComparisonCapacity[],
  verdicts: readonly Verdict[],
  t: Thresholds,
  o: DecisionOptions,
): Decision[] {
  const byId = new Map(verdicts.map((v) => [v.id, v]))
  return decisionScope(configs, comparisons, t).map((q) => {
    const d = decideQuestion(q, byId.get(q.id), configs, o)
    // The design's costed runs assume the model holds: where its held-out check missed, they would decide nothing.
    const missed = d.from.some((k) => o.missed?.has(k))
    return d.state === 'undecided' && !missed ? { ...d, needs: o.needs?.get(d.id) ?? null } : d
  })
}

const STATE_WORDS: Readonly<Record<DecisionState, string>> = {
  pass: 'PASS',
  fail: 'FAIL',
  'at-threshold': 'AT THRESHOLD',
  undecided: 'UNDECIDED',
}

/** A decision's state as reports print it. */
export const decisionWord = (state: DecisionState) => STATE_WORDS[state]

/**
 * The verdicts with each decided one's state written into it: pass and fail as they are, "at threshold" and
 * undecided as inconclusive (the verdict's six states stay; `decision` carries the four), its threshold the
 * question's, its detail ending with why.
 */
export function withDecisions(verdicts: readonly Verdict[], decisions: readonly Decision[]): Verdict[] {
  const byId = new Map(decisions.map((d) => [d.id, d]))
  return verdicts.map((v) => {
    const d = byId.get(v.id)
    if (!d) return v
    // An undecided verdict's detail says what would decide it, as the answer's reason line does (issue 44).
    const toDecide = d.state === 'undecided' ? (d.needs ?? d.decideBy ?? null) : null
    const threshold = `${d.direction === 'at-most' ? '<=' : '>='} ${d.threshold}${d.unit === '%' ? '%' : ` ${d.unit}`}${d.kind === 'speedup' ? ' (speedup: 1-GPU wall time over this wall time, same input)' : ''}`
    return {
      ...v,
      verdict: d.state === 'pass' ? 'pass' : d.state === 'fail' ? 'fail' : 'inconclusive',
      threshold,
      detail: `${v.detail} | ${decisionWord(d.state)}: ${d.why}${toDecide ? `; to decide it: ${toDecide}` : ''}`,
      decision: { state: d.state, level: d.ci?.level ?? null, why: d.why, needs: d.needs },
    }
  })
}

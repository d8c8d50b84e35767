/**
 * The figures of a sharded run as a whole, from its shards' size models (fleet-shard-models.ts), each with the CI of
 * the models' draws taken together (estimateFrom: draw b of every shard's model at once; the shards' draws are
 * independent), which covers every shard's run-to-run variation, start-up included:
 * - fleet time: the slowest shard's wall time at its own size (the shards run at once; the run ends with the last).
 *   It is the slowest shard's mean time: one pass waits for the slowest shard's actual run, which run-to-run noise
 *   makes a little longer when several shards are about as slow (by about the noise's sd x E[max of k normals]);
 * - fleet throughput (sequences per second of fleet time) and joules per sequence (every shard's energy summed);
 * - N nodes against 1: one node on the whole input is either measured (a `0/1` task's own model, at the input's size)
 *   or, without one, projected from the shards' own fixed + per-sequence parts (each shard's node on the whole input,
 *   their median: a typical node of the fleet); the speedup is judged against thresholds.scalingBands[N] by the scaling
 *   suite's rule (fail when the whole CI is below the band, inconclusive when it straddles its floor, flag above its top);
 * - the production size on the fleet (PERF-01), and each shard's node alone on it.
 * A comparison with nothing measured on one side is no verdict, and says what is missing. Pure.
 */

import type { Figure } from '../../capacity/table.ts'
import type { Thresholds } from '../../config/thresholds.ts'
import { judgeAtMost } from '../../engine/verdict.ts'
import { estimateFrom, type LineOf, type SizeEstimate, valueAt } from '../../measure/index.ts'
import { medianOf } from '../../results/runs.ts'
import type { VerdictValue } from '../../results/schema/index.ts'
import { ENERGY, meanOf, type ShardMeasured, WALL } from './fleet-shard-models.ts'

export interface FleetFigures {
  /** The slowest shard's wall time, ms (means of its runs, as the size model reads them). */
  wallMs: Figure
  sequences: number
  sequencesPerS: Figure
  jPerSequence: Figure | null
  /** Why the figures have no CI; null when they have one. */
  ciProblem: string | null
}

export type NodeComparison =
  | {
      state: 'judged'
      method: 'measured' | 'projected'
      nodes: number
      /** The 0/1 record the one-node time was measured by; null when projected. */
      oneNodeRecordId: string | null
      oneNodeMs: Figure
      fleetMs: Figure
      speedup: Figure
      efficiency: Figure
      band: { low: number; high: number } | null
      verdict: VerdictValue
      detail: string
    }
  | { state: 'no-verdict'; reason: string }

const figureOf = (e: SizeEstimate): Figure => ({
  value: e.estimate,
  ci: e.ci ? { low: e.ci.low, high: e.ci.high } : null,
})
const sizeOf = (s: ShardMeasured) => s.stats.full.sequenceEquivalents
const withDraws = (shards: readonly ShardMeasured[]) => shards.every((s) => s.model?.draws)
const firstProblem = (shards: readonly ShardMeasured[]) =>
  shards.map((s) => (s.modelProblem ? `shard ${s.stats.shard.index}: ${s.modelProblem}` : null)).find((p) => p) ?? null

/** The slowest shard at its own size, per set of lines (one per shard). */
const slowest = (shards: readonly ShardMeasured[], lines: readonly LineOf[]) =>
  Math.max(...lines.map((line, i) => valueAt(line(WALL), sizeOf(shards[i]!))))

/** `f` over the shards' lines with the models' CI; over the runs' means (no CI) when a shard has no model. */
function estimate(
  shards: readonly ShardMeasured[],
  f: (lines: LineOf[]) => number,
  fromMeans: () => number,
): SizeEstimate {
  if (shards.every((s) => s.model))
    return estimateFrom(
      shards.map((s) => s.model!),
      (...lines) => f(lines),
    )
  return { estimate: fromMeans(), ci: null }
}

/** A rate from a time: total x 1000 / ms, the CI's ends swapped. */
const perSecond = (total: number, ms: Figure): Figure => ({
  value: (total * 1000) / ms.value,
  ci: ms.ci && ms.ci.low > 0 ? { low: (total * 1000) / ms.ci.high, high: (total * 1000) / ms.ci.low } : null,
})

export function fleetFigures(shards: readonly ShardMeasured[], sequences: number): FleetFigures {
  const wall = figureOf(
    estimate(
      shards,
      (lines) => slowest(shards, lines),
      () => Math.max(...shards.map((s) => meanOf(s.full.map((r) => r.wallMs)))),
    ),
  )
  const energyModels = shards.every((s) => s.model?.series.includes(ENERGY))
  const energyRuns = shards.every((s) => s.full.every((r) => r.energyJ !== null))
  const energy = energyModels
    ? estimateFrom(
        shards.map((s) => s.model!),
        (...lines) => lines.reduce((a, line, i) => a + valueAt(line(ENERGY), sizeOf(shards[i]!)), 0),
      )
    : energyRuns
      ? { estimate: shards.reduce((a, s) => a + meanOf(s.full.map((r) => r.energyJ!)), 0), ci: null }
      : null
  const perSequence = (x: number) => x / sequences
  return {
    wallMs: wall,
    sequences,
    sequencesPerS: perSecond(sequences, wall),
    jPerSequence: energy
      ? {
          value: perSequence(energy.estimate),
          ci: energy.ci ? { low: perSequence(energy.ci.low), high: perSequence(energy.ci.high) } : null,
        }
      : null,
    ciProblem: withDraws(shards) ? null : (firstProblem(shards) ?? 'no CI'),
  }
}

/** The scaling suite's band rule (src/measure/scaling.ts), on a speedup of nodes; the detail says which part of it. */
function judgeSpeedup(s: Figure, band: { low: number; high: number } | null, n: number) {
  if (!band) return { verdict: 'inconclusive' as const, detail: `thresholds.scalingBands has no band for ${n}` }
  const range = `band ${band.low}-${band.high}x`
  if (!s.ci) return { verdict: 'inconclusive' as const, detail: `no CI, so no verdict against the ${range}` }
  if (s.ci.high < band.low) return { verdict: 'fail' as const, detail: `CI below the ${range}` }
  if (s.ci.low < band.low) return { verdict: 'inconclusive' as const, detail: `CI straddles the floor of the ${range}` }
  if (s.value > band.high) return { verdict: 'flag' as const, detail: `above the ${range}; worth a look` }
  return { verdict: 'pass' as const, detail: `within the ${range}` }
}

/**
 * N shards against one node on the whole input (`oneNode`: a measured 0/1 record; null: projected from the shards).
 * `complete` false (a shard missing or failed): the fleet's time is not measured, so no verdict.
 */
export function compareWithOneNode(
  shards: readonly ShardMeasured[],
  oneNode: ShardMeasured | null,
  t: Thresholds,
  incomplete: string | null,
): NodeComparison {
  const n = shards.length
  if (incomplete) return { state: 'no-verdict', reason: `no verdict: the fleet's time is not measured (${incomplete})` }
  const models = [...(oneNode ? [oneNode] : []), ...shards]
  const whole = oneNode ? sizeOf(oneNode) : (shards[0]?.stats.source.records ?? 0)
  if (!oneNode && !shards.every((s) => s.model))
    return {
      state: 'no-verdict',
      reason: `no verdict: nothing measured for one node: no 0/1 task on the whole input, and ${firstProblem(shards)}`,
    }
  if (oneNode && oneNode.full.length === 0)
    return { state: 'no-verdict', reason: `no verdict: the one-node record ${oneNode.record.id} has no completed run` }
  const single = (lines: LineOf[]) =>
    oneNode ? valueAt(lines[0]!(WALL), whole) : medianOf(lines.map((line) => valueAt(line(WALL), whole)))!
  const fleet = (lines: LineOf[]) => slowest(shards, oneNode ? lines.slice(1) : lines)
  const fromMeans = (arms: readonly ShardMeasured[]) => arms.map((s) => meanOf(s.full.map((r) => r.wallMs)))
  const one = figureOf(estimate(models, single, () => fromMeans([oneNode!])[0]!))
  const fleetMs = figureOf(estimate(models, fleet, () => Math.max(...fromMeans(shards))))
  const speedup = figureOf(
    estimate(
      models,
      (lines) => single(lines) / fleet(lines),
      () => one.value / fleetMs.value,
    ),
  )
  const scaled = (x: number) => x / n
  const band = t.scalingBands[String(n)]
  const judged = judgeSpeedup(speedup, band ? { low: band[0], high: band[1] } : null, n)
  const how = oneNode
    ? `one node measured (${oneNode.record.id}, ${oneNode.stats.host})`
    : `one node projected from each shard's fixed + per-sequence parts to the whole input (median over the ${n} nodes)`
  return {
    state: 'judged',
    method: oneNode ? 'measured' : 'projected',
    nodes: n,
    oneNodeRecordId: oneNode?.record.id ?? null,
    oneNodeMs: one,
    fleetMs,
    speedup,
    efficiency: {
      value: scaled(speedup.value),
      ci: speedup.ci && { low: scaled(speedup.ci.low), high: scaled(speedup.ci.high) },
    },
    band: band ? { low: band[0], high: band[1] } : null,
    verdict: judged.verdict,
    detail: [
      judged.detail,
      how,
      ...(models.every((m) => m.model?.draws) ? [] : [firstProblem(models) ?? 'no CI']),
      // Few runs a size and a long extrapolation give draws below zero: the CI is valid but says little.
      ...(one.ci && one.ci.low <= 0 ? ['the one-node CI reaches 0 s: more runs at each size would narrow it'] : []),
    ].join('; '),
  }
}

export interface ProductionFigure {
  sequences: number
  wallMs: Figure
  perf01: VerdictValue
}

/** The production size split as the shards split the input (each its share of the work), on the fleet: PERF-01. */
export function productionOnFleet(shards: readonly ShardMeasured[], t: Thresholds): ProductionFigure | null {
  if (!shards.every((s) => s.model)) return null
  const total = shards.reduce((a, s) => a + sizeOf(s), 0)
  const p = t.perf01.productionSequences
  const e = estimateFrom(
    shards.map((s) => s.model!),
    (...lines) => Math.max(...lines.map((line, i) => valueAt(line(WALL), (p * sizeOf(shards[i]!)) / total))),
  )
  return {
    sequences: p,
    wallMs: figureOf(e),
    perf01: e.ci ? judgeAtMost(e.estimate, e.ci, t.perf01.targetMs) : 'inconclusive',
  }
}

/** One shard's node alone on the whole production input (its own model): what that host would take. */
export function productionAlone(shard: ShardMeasured, t: Thresholds): ProductionFigure | null {
  if (!shard.model) return null
  const p = t.perf01.productionSequences
  const e = estimateFrom([shard.model], (line) => valueAt(line(WALL), p))
  return {
    sequences: p,
    wallMs: figureOf(e),
    perf01: e.ci ? judgeAtMost(e.estimate, e.ci, t.perf01.targetMs) : 'inconclusive',
  }
}

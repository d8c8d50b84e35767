/**
 * Hosts against each other: per measurement (fleet-runs.ts) one row per host (seq/s, tok/s, J/seq, wall time, each a
 * median with its CI over the host's runs) and one row per GPU model (all its hosts' runs pooled, the spread of their
 * medians), and per GPU model the bad-node verdict of each host (src/measure/fleet-spread.ts: outside the spread of
 * the hosts of the same model on seq/s, by more than the regression gate's threshold, its own runs agreeing). Only
 * measurements that two or more hosts ran are compared; the others are counted. Pure.
 */

import type { Figure } from '../../capacity/table.ts'
import { judgeFleetSpread, type SpreadVerdict } from '../../measure/fleet-spread.ts'
import { groupBy } from '../../results/runs.ts'
import { figureOfValues, type MeasuredGroup } from './fleet-runs.ts'

export interface HostRow {
  measurement: string
  host: string
  gpuModel: string
  recordIds: string[]
  runs: number
  sequencesPerS: Figure | null
  tokensPerS: Figure | null
  jPerSequence: Figure | null
  wallMs: Figure | null
  /** (host median seq/s - its GPU model's fleet median) / that median; null without seq/s. */
  relativeToModel: number | null
  badNode: { verdict: SpreadVerdict; direction: 'slower' | 'faster' | null; reason: string }
}

export interface ModelRow {
  measurement: string
  gpuModel: string
  hosts: number
  runs: number
  /** Every run of the model's hosts pooled: median and CI. */
  sequencesPerS: Figure | null
  /** Lowest and highest host median. */
  hostRange: { low: number; high: number } | null
  tokensPerS: Figure | null
  jPerSequence: Figure | null
  /** Hosts flagged slower than their GPU model's fleet (bad nodes), and faster. */
  badNodes: string[]
  faster: string[]
}

export interface HostComparison {
  hosts: HostRow[]
  models: ModelRow[]
  /** Measurements only one host ran: nothing to compare them with. */
  singleHost: string[]
}

const pooled = (groups: readonly MeasuredGroup[], pick: (r: MeasuredGroup['runs'][number]) => number | null) =>
  groups.flatMap((g) => g.runs.map(pick))

function hostRow(g: MeasuredGroup): Omit<HostRow, 'relativeToModel' | 'badNode'> {
  const f = (pick: (r: MeasuredGroup['runs'][number]) => number | null, what: string) =>
    figureOfValues(g.runs.map(pick), `${g.host} ${what}`)
  return {
    measurement: g.measurement,
    host: g.host,
    gpuModel: g.gpuModel,
    recordIds: g.recordIds,
    runs: g.runs.length,
    sequencesPerS: f((r) => r.sequencesPerS, 'seq/s'),
    tokensPerS: f((r) => r.tokensPerS, 'tok/s'),
    jPerSequence: f((r) => r.jPerSequence, 'J/seq'),
    wallMs: f((r) => r.wallMs, 'wall ms'),
  }
}

/** One GPU model's hosts on one measurement: their rows with the bad-node verdicts, and the model's row. */
function modelRows(measurement: string, gpuModel: string, groups: readonly MeasuredGroup[]) {
  const rows = groups.map(hostRow)
  const rated = groups.filter((g) => g.runs.some((r) => r.sequencesPerS !== null))
  const spread = judgeFleetSpread(
    rated.map((g) => ({ host: g.host, values: g.runs.flatMap((r) => r.sequencesPerS ?? []) })),
    { minRelativeEffect: groups[0]!.record.thresholds.regression.timeThreshold },
  )
  const hosts: HostRow[] = rows.map((row) => {
    const j = spread.hosts.find((h) => h.host === row.host)
    return {
      ...row,
      relativeToModel: j ? j.relative : null,
      badNode: j
        ? { verdict: j.verdict, direction: j.direction, reason: j.reason }
        : { verdict: 'inconclusive', direction: null, reason: 'no verdict: its runs logged no sequence count' },
    }
  })
  const medians = hosts.flatMap((h) => h.sequencesPerS?.value ?? [])
  const flagged = (side: 'slower' | 'faster') =>
    hosts.filter((h) => h.badNode.verdict === 'flag' && h.badNode.direction === side).map((h) => h.host)
  const model: ModelRow = {
    measurement,
    gpuModel,
    hosts: groups.length,
    runs: groups.reduce((n, g) => n + g.runs.length, 0),
    sequencesPerS: figureOfValues(
      pooled(groups, (r) => r.sequencesPerS),
      `${gpuModel} seq/s`,
    ),
    hostRange: medians.length > 0 ? { low: Math.min(...medians), high: Math.max(...medians) } : null,
    tokensPerS: figureOfValues(
      pooled(groups, (r) => r.tokensPerS),
      `${gpuModel} tok/s`,
    ),
    jPerSequence: figureOfValues(
      pooled(groups, (r) => r.jPerSequence),
      `${gpuModel} J/seq`,
    ),
    badNodes: flagged('slower'),
    faster: flagged('faster'),
  }
  return { hosts, model }
}

/** Pure: every measured group in, the host and GPU-model comparison out. */
export function compareHosts(groups: readonly MeasuredGroup[]): HostComparison {
  const out: HostComparison = { hosts: [], models: [], singleHost: [] }
  for (const [measurement, ofMeasurement] of groupBy(groups, (g) => g.measurement)) {
    // The same host may bring one measurement in several records (two runs merged): its runs together.
    const byHost = [...groupBy(ofMeasurement, (g) => `${g.host}\u0000${g.gpuModel}`).values()].map((list) => ({
      ...list[0]!,
      recordIds: list.flatMap((g) => g.recordIds),
      runs: list.flatMap((g) => g.runs),
    }))
    if (byHost.length < 2) {
      out.singleHost.push(measurement)
      continue
    }
    for (const [gpuModel, ofModel] of groupBy(byHost, (g) => g.gpuModel)) {
      const { hosts, model } = modelRows(measurement, gpuModel, ofModel)
      out.hosts.push(...hosts)
      out.models.push(model)
    }
  }
  return out
}

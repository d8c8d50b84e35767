/**
 * Fleet figures in words, shared by the markdown, HTML and terminal renderers so all three say the same: rates and
 * joules with their CIs, a host's PERF verdicts, and the lines that answer a sharded run (how fast the fleet was, who
 * held it up and why, N nodes against 1, the production size). A comparison with nothing measured on one side reads
 * `NO VERDICT` and why. Pure; raw text: callers escape.
 */
import type { Figure } from '../../capacity/table.ts'
import type { FleetReport } from '../analyses/fleet.ts'
import type { PerfSummary } from '../analyses/fleet-host-summary.ts'
import type { NodeComparison } from '../analyses/fleet-shard-compare.ts'
import type { ShardRunReport } from '../analyses/fleet-shards.ts'
import { fmtCount, fmtSpeedup, fmtWall } from './capacity-text.ts'
import { fmtMs } from './format.ts'

const digits = (v: number) => (Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2)

/** `12.3 unit [11.9, 12.8]`; `n/a` for none. */
export function fmtRate(f: Figure | null, unit: string): string {
  if (!f) return 'n/a'
  const d = digits(f.value)
  return `${f.value.toFixed(d)} ${unit}${f.ci ? ` [${f.ci.low.toFixed(d)}, ${f.ci.high.toFixed(d)}]` : ''}`
}

export const fmtSeqPerS = (f: Figure | null) => fmtRate(f, 'seq/s')
export const fmtTokPerS = (f: Figure | null) => fmtRate(f, 'tok/s')
export const fmtJPerSeq = (f: Figure | null) => fmtRate(f, 'J/seq')

/** `+5.1%` against the GPU model's median. */
export const fmtRelative = (x: number | null) => (x === null ? 'n/a' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`)

/** `PASS (2)`, `FAIL (1 of 3)`: the worst verdict and how many of the checks it was. */
export function fmtPerf(p: PerfSummary | null): string {
  if (!p) return 'n/a'
  const total = Object.values(p.counts).reduce((a, n) => a + (n ?? 0), 0)
  const worst = p.counts[p.worst] ?? 0
  return `${p.worst.toUpperCase()} (${worst === total ? total : `${worst} of ${total}`})`
}

/** The run's title: its configuration, shard count, input and run ID. */
export function shardRunTitle(r: ShardRunReport): string {
  return `${r.configuration}: ${r.count} shard${r.count === 1 ? '' : 's'} of ${fmtCount(r.input.records)} seqs (${r.input.sha256.slice(0, 12)}), run ${r.runId}`
}

export function comparisonLine(c: NodeComparison, nodes: number): string {
  if (c.state === 'no-verdict') return `${nodes} nodes vs 1: NO VERDICT (${c.reason.replace(/^no verdict: /, '')})`
  const eff = `efficiency ${(c.efficiency.value * 100).toFixed(0)}%`
  const times = `1 node ${fmtWall(c.oneNodeMs)} (${c.method}), ${nodes} nodes ${fmtWall(c.fleetMs)}`
  return `${nodes} nodes vs 1: ${c.verdict.toUpperCase()} ${fmtSpeedup(c.speedup)} (${eff}; ${times}): ${c.detail}`
}

/** The answer to a sharded run, one line each: fleet, straggler, N vs 1 (and its projected check), production. */
export function shardRunLines(r: ShardRunReport): string[] {
  const lines: string[] = []
  if (r.fleet) {
    const f = r.fleet
    lines.push(
      `Fleet: ${fmtCount(f.sequences)} seqs in ${fmtWall(f.wallMs)} on ${r.count} node(s): ${fmtSeqPerS(f.sequencesPerS)}, ${fmtJPerSeq(f.jPerSequence)}${f.ciProblem ? ` (${f.ciProblem})` : ''}.`,
    )
  } else lines.push(`Fleet: NO VERDICT, its time is not measured (${r.incomplete ?? 'no completed shard'}).`)
  const s = r.straggler
  if (s)
    lines.push(
      `Straggler: shard ${s.index} on ${s.host} (${s.gpuModel}) ${fmtMs(s.wallMs)}, ${s.ratio.toFixed(2)}x the median shard (${fmtMs(s.medianShardMs)})${s.stage ? `; ${s.stage.name} +${fmtMs(s.stage.excessMs)} over the other shards' median` : ''}. Balance ${s.balance.verdict.toUpperCase()}: ${s.balance.reason}.`,
    )
  lines.push(`${comparisonLine(r.vsOneNode, r.count)}.`)
  if (r.vsOneNodeProjected)
    lines.push(`Check, projected from the shards' own models: ${comparisonLine(r.vsOneNodeProjected, r.count)}.`)
  if (r.production)
    lines.push(
      `${fmtCount(r.production.sequences)} sequences on ${r.count} node(s) like these: ${fmtWall(r.production.wallMs)} (PERF-01 ${r.production.perf01.toUpperCase()}).`,
    )
  return lines
}

/** Terminal lines: the fleet in one line, each bad node, each sharded run's answer; none without a fleet. */
export function fleetTerminalLines(f: FleetReport | null): string[] {
  if (!f) return []
  const models = new Set(f.hosts.map((h) => h.gpuModel)).size
  const lines = [
    `fleet: ${new Set(f.hosts.map((h) => h.host)).size} host(s), ${models} GPU model(s), ${f.sources.length || 1} directory(ies), ${f.shardRuns.length} sharded run(s)`,
  ]
  for (const h of f.comparison.hosts.filter((x) => x.badNode.verdict === 'flag'))
    lines.push(
      `fleet ${h.badNode.direction === 'slower' ? 'BAD NODE' : 'FASTER'} ${h.host} (${h.gpuModel}) on ${h.measurement}: ${fmtSeqPerS(h.sequencesPerS)}, ${h.badNode.reason}`,
    )
  for (const r of f.shardRuns) for (const line of shardRunLines(r)) lines.push(`fleet ${r.runId}: ${line}`)
  return lines
}

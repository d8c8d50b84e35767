/**
 * summary.md's fleet section: the directories merged, one row per host (PERF verdicts, projected production time, bad
 * node), per measurement that several hosts ran a row per host and per GPU model (seq/s, tok/s, J/seq with CIs, the
 * bad-node verdict and why), and per sharded run the answer in words (fleet-text.ts) and a row per shard. Pure.
 */
import type { FleetReport } from '../analyses/fleet.ts'
import type { HostSummary } from '../analyses/fleet-host-summary.ts'
import type { ShardRunReport } from '../analyses/fleet-shards.ts'
import { fmtCount, fmtWall } from './capacity-text.ts'
import { escapeMarkdown as esc } from './escape.ts'
import { fmtJPerSeq, fmtPerf, fmtRelative, fmtSeqPerS, fmtTokPerS, shardRunLines, shardRunTitle } from './fleet-text.ts'
import { mdTable } from './markdown-table.ts'

/** The bad-node rule in one sentence: the legend under the host tables. */
export const BAD_NODE_RULE =
  'Bad node: among the hosts of one GPU model (3 or more) on one measurement, a host whose seq/s is outside the fleet spread (|modified z| > 3.5 against the median of the host medians; the scale is their MAD, never below the run-to-run sd), off the median by more than the regression threshold, with its own runs on that side. Fewer hosts: no verdict.'

export function projectionText(h: HostSummary): string {
  if (h.projections.length === 0) return 'no size model'
  return h.projections
    .map((p) => `${p.label}: ${fmtWall(p.wallMs)} (PERF-01 ${(p.perf01 ?? 'n/a').toUpperCase()})`)
    .join('; ')
}

function sourcesTable(f: FleetReport): string {
  if (f.sources.length === 0) return ''
  const rows = f.sources.map((s) => [
    s.dir,
    s.runIds.join(', ') || '-',
    String(s.records),
    String(s.invalid),
    String(s.duplicates),
    s.problem ?? '',
  ])
  return `${mdTable(['directory', 'run IDs', 'records', 'invalid files', 'copies left out', 'problem'], rows)}\n`
}

function hostsTable(f: FleetReport): string {
  const rows = f.hosts.map((h) => [
    h.host,
    h.gpuModel,
    `${h.records}${h.failed ? ` (${h.failed} failed)` : ''}`,
    fmtPerf(h.perf01),
    fmtPerf(h.perf02),
    fmtPerf(h.perf03),
    projectionText(h),
    h.badNodeIn.length ? `BAD NODE on ${h.badNodeIn.join('; ')}` : '-',
  ])
  const head = [
    'host',
    'GPU model',
    'records',
    'PERF-01',
    'PERF-02',
    'PERF-03',
    'projected production time',
    'bad node',
  ]
  return `${mdTable(head, rows)}\n`
}

function measurementTables(f: FleetReport): string {
  const c = f.comparison
  const parts: string[] = []
  for (const measurement of [...new Set(c.hosts.map((h) => h.measurement))]) {
    const hosts = c.hosts.filter((h) => h.measurement === measurement)
    const models = c.models.filter((m) => m.measurement === measurement)
    const hostRows = hosts.map((h) => [
      h.host,
      h.gpuModel,
      String(h.runs),
      fmtSeqPerS(h.sequencesPerS),
      fmtTokPerS(h.tokensPerS),
      fmtJPerSeq(h.jPerSequence),
      fmtRelative(h.relativeToModel),
      `${h.badNode.verdict === 'flag' ? `FLAG (${h.badNode.direction})` : h.badNode.verdict.toUpperCase()}: ${h.badNode.reason}`,
    ])
    const modelRows = models.map((m) => [
      m.gpuModel,
      String(m.hosts),
      String(m.runs),
      fmtSeqPerS(m.sequencesPerS),
      m.hostRange ? `${m.hostRange.low.toFixed(2)}-${m.hostRange.high.toFixed(2)}` : 'n/a',
      fmtTokPerS(m.tokensPerS),
      fmtJPerSeq(m.jPerSequence),
      [...m.badNodes.map((b) => `${b} (slower)`), ...m.faster.map((b) => `${b} (faster)`)].join(', ') || '-',
    ])
    parts.push(
      `### ${esc(measurement)}\n\n${mdTable(['host', 'GPU model', 'runs', 'seq/s [95% CI]', 'tok/s', 'J/seq', 'vs GPU model median', 'bad node'], hostRows)}\n\n${mdTable(['GPU model', 'hosts', 'runs', 'seq/s, all runs', 'host medians', 'tok/s', 'J/seq', 'outside the spread'], modelRows)}\n`,
    )
  }
  return parts.length
    ? `${parts.join('\n')}\n_${esc(BAD_NODE_RULE)}_\n`
    : '_No measurement ran on two or more hosts._\n'
}

function shardRunMarkdown(r: ShardRunReport): string {
  const rows = r.shards.map((s) => [
    String(s.index),
    s.host,
    s.gpuModel,
    s.state,
    fmtCount(s.records),
    String(s.runs),
    fmtWall(s.wallMs),
    fmtSeqPerS(s.sequencesPerS),
    s.modelProblem ?? 'fixed + per-sequence parts, with CI',
  ])
  const extra = [
    ...(r.missing.length ? [`Missing: shard(s) ${r.missing.join(', ')} of ${r.count} have no record.`] : []),
    ...(r.replaced.length ? [`Replaced by a newer record of the same shard: ${r.replaced.join(', ')}.`] : []),
  ]
  return [
    `### Sharded run ${esc(shardRunTitle(r))}`,
    '',
    ...shardRunLines(r).map((l) => `**${esc(l)}**\n`),
    mdTable(['shard', 'host', 'GPU model', 'state', 'records', 'runs', 'wall [95% CI]', 'seq/s', 'size model'], rows),
    ...extra.map((l) => `\n${esc(l)}`),
    '',
  ].join('\n')
}

export function fleetMarkdown(f: FleetReport): string {
  const hosts = new Set(f.hosts.map((h) => h.host)).size
  const models = new Set(f.hosts.map((h) => h.gpuModel)).size
  return [
    `${hosts} host(s), ${models} GPU model(s), ${f.shardRuns.length} sharded run(s).\n`,
    sourcesTable(f),
    hostsTable(f),
    measurementTables(f),
    ...f.shardRuns.map(shardRunMarkdown),
    ...(f.notes.length ? [f.notes.map((n) => `- ${esc(n)}`).join('\n'), ''] : []),
  ]
    .filter((p) => p !== '')
    .join('\n')
    .replace(/\n*$/, '\n')
}

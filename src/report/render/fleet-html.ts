/**
 * index.html's fleet section: the same tables and words as summary.md's (fleet-markdown.ts, fleet-text.ts) with a
 * chart per measurement that several hosts ran (seq/s per host, bad nodes ringed) and per sharded run (wall time per
 * shard, the straggler in red, the fleet's time). Every string from records escaped; SVGs from vega's serializer.
 */
import type { FleetReport } from '../analyses/fleet.ts'
import type { ShardRunReport } from '../analyses/fleet-shards.ts'
import { fmtCount, fmtWall } from './capacity-text.ts'
import { renderSvg } from './charts.ts'
import { escapeHtml as h } from './escape.ts'
import { hostsSpec, shardsSpec } from './fleet-chart.ts'
import { BAD_NODE_RULE, projectionText } from './fleet-markdown.ts'
import { fmtJPerSeq, fmtPerf, fmtRelative, fmtSeqPerS, fmtTokPerS, shardRunLines, shardRunTitle } from './fleet-text.ts'
import { table, verdictCell } from './html-table.ts'

/** Charts drawn per kind (the tables hold every row). */
export const MAX_FLEET_CHARTS = 6

function sourcesTable(f: FleetReport): string {
  if (f.sources.length === 0) return ''
  const row = (i: number) => {
    const s = f.sources[i]!
    return [
      h(s.dir),
      h(s.runIds.join(', ') || '-'),
      String(s.records),
      String(s.invalid),
      String(s.duplicates),
      h(s.problem ?? ''),
    ]
  }
  return `<h3>Directories merged</h3>${table(['directory', 'run IDs', 'records', 'invalid files', 'copies left out', 'problem'], f.sources.length, row)}`
}

function hostsTable(f: FleetReport): string {
  const row = (i: number) => {
    const x = f.hosts[i]!
    const perf = (p: (typeof x)['perf01']) =>
      p ? `${verdictCell(p.worst)} ${h(fmtPerf(p).replace(/^\S+ /, ''))}` : 'n/a'
    return [
      h(x.host),
      h(x.gpuModel),
      h(`${x.records}${x.failed ? ` (${x.failed} failed)` : ''}`),
      perf(x.perf01),
      perf(x.perf02),
      perf(x.perf03),
      h(projectionText(x)),
      x.badNodeIn.length ? `${verdictCell('flag')} bad node on ${h(x.badNodeIn.join('; '))}` : '-',
    ]
  }
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
  return `<h3>Hosts</h3>${table(head, f.hosts.length, row)}`
}

async function measurementSection(f: FleetReport, measurement: string, chart: boolean): Promise<string> {
  const hosts = f.comparison.hosts.filter((x) => x.measurement === measurement)
  const models = f.comparison.models.filter((m) => m.measurement === measurement)
  const hostRow = (i: number) => {
    const x = hosts[i]!
    const label =
      x.badNode.verdict === 'flag'
        ? `${verdictCell('flag')} ${h(x.badNode.direction ?? '')}`
        : verdictCell(x.badNode.verdict)
    return [
      h(x.host),
      h(x.gpuModel),
      String(x.runs),
      h(fmtSeqPerS(x.sequencesPerS)),
      h(fmtTokPerS(x.tokensPerS)),
      h(fmtJPerSeq(x.jPerSequence)),
      h(fmtRelative(x.relativeToModel)),
      `${label} ${h(x.badNode.reason)}`,
    ]
  }
  const modelRow = (i: number) => {
    const m = models[i]!
    return [
      h(m.gpuModel),
      String(m.hosts),
      String(m.runs),
      h(fmtSeqPerS(m.sequencesPerS)),
      h(m.hostRange ? `${m.hostRange.low.toFixed(2)}-${m.hostRange.high.toFixed(2)}` : 'n/a'),
      h(fmtTokPerS(m.tokensPerS)),
      h(fmtJPerSeq(m.jPerSequence)),
      h([...m.badNodes.map((b) => `${b} (slower)`), ...m.faster.map((b) => `${b} (faster)`)].join(', ') || '-'),
    ]
  }
  const svg = chart ? `<div class="chart">${await renderSvg(hostsSpec(f.comparison, measurement))}</div>` : ''
  return [
    `<h3>${h(measurement)}</h3>`,
    svg,
    table(
      ['host', 'GPU model', 'runs', 'seq/s [95% CI]', 'tok/s', 'J/seq', 'vs GPU model median', 'bad node'],
      hosts.length,
      hostRow,
    ),
    table(
      ['GPU model', 'hosts', 'runs', 'seq/s, all runs', 'host medians', 'tok/s', 'J/seq', 'outside the spread'],
      models.length,
      modelRow,
    ),
  ].join('\n')
}

async function shardRunSection(r: ShardRunReport, chart: boolean): Promise<string> {
  const row = (i: number) => {
    const s = r.shards[i]!
    return [
      String(s.index),
      h(s.host),
      h(s.gpuModel),
      s.state === 'completed' ? h(s.state) : verdictCell('failed'),
      h(fmtCount(s.records)),
      String(s.runs),
      h(fmtWall(s.wallMs)),
      h(fmtSeqPerS(s.sequencesPerS)),
      h(s.modelProblem ?? 'fixed + per-sequence parts, with CI'),
    ]
  }
  const svg =
    chart && r.shards.some((s) => s.wallMs) ? `<div class="chart">${await renderSvg(shardsSpec(r))}</div>` : ''
  const extra = [
    ...(r.missing.length ? [`Missing: shard(s) ${r.missing.join(', ')} of ${r.count} have no record.`] : []),
    ...(r.replaced.length ? [`Replaced by a newer record of the same shard: ${r.replaced.join(', ')}.`] : []),
  ]
  return [
    `<h3>Sharded run ${h(shardRunTitle(r))}</h3>`,
    ...shardRunLines(r).map((l) => `<p><strong>${h(l)}</strong></p>`),
    svg,
    table(
      ['shard', 'host', 'GPU model', 'state', 'records', 'runs', 'wall [95% CI]', 'seq/s', 'size model'],
      r.shards.length,
      row,
    ),
    ...extra.map((l) => `<p class="note">${h(l)}</p>`),
  ].join('\n')
}

/** The section, or '' when the report has no fleet (one host's run without shards). */
export async function fleetSection(f: FleetReport | null): Promise<string> {
  if (!f) return ''
  const measurements = [...new Set(f.comparison.hosts.map((x) => x.measurement))]
  const parts = [sourcesTable(f), hostsTable(f)]
  for (const [i, m] of measurements.entries()) parts.push(await measurementSection(f, m, i < MAX_FLEET_CHARTS))
  if (measurements.length > 0) parts.push(`<p><em>${h(BAD_NODE_RULE)}</em></p>`)
  else parts.push('<p>No measurement ran on two or more hosts.</p>')
  for (const [i, r] of f.shardRuns.entries()) parts.push(await shardRunSection(r, i < MAX_FLEET_CHARTS))
  if (f.notes.length) parts.push(`<ul>${f.notes.map((n) => `<li>${h(n)}</li>`).join('')}</ul>`)
  return `<h2>Fleet: hosts, GPU models and sharded runs</h2>\n${parts.filter((p) => p !== '').join('\n')}`
}

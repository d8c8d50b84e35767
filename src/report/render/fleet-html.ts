/**
 * index.html's fleet section: the same tables and words as summary.md's (fleet-cells.ts, fleet-text.ts) with a chart
 * per measurement that several hosts ran (seq/s per host, bad nodes ringed) and per sharded run (wall time per shard,
 * the straggler in red, the fleet's time). Every string from records escaped; SVGs from vega's serializer.
 */
import type { FleetReport } from '../analyses/fleet.ts'
import type { PerfSummary } from '../analyses/fleet-host-summary.ts'
import type { ShardRunReport } from '../analyses/fleet-shards.ts'
import { renderSvg } from './charts.ts'
import { escapeHtml as h } from './escape.ts'
import {
  BAD_NODE_RULE,
  badNodeWord,
  byMeasurement,
  HOST_HEAD,
  HOST_ROW_HEAD,
  hostCells,
  hostRowCells,
  MODEL_HEAD,
  modelCells,
  SHARD_HEAD,
  SOURCE_HEAD,
  shardCells,
  shardRunNotes,
  sourceCells,
} from './fleet-cells.ts'
import { hostsSpec, shardsSpec } from './fleet-chart.ts'
import { shardRunLines, shardRunTitle } from './fleet-text.ts'
import { table, verdictCell } from './html-table.ts'

/** Charts drawn per kind (the tables hold every row). */
export const MAX_FLEET_CHARTS = 6

/** Text cells escaped, then the named ones replaced by their markup. */
const cellsOf = (text: string[], markup: Partial<Record<number, string>> = {}) =>
  text.map((cell, i) => markup[i] ?? h(cell))

/** `PASS (2)` as a coloured verdict and its count. */
const perfCell = (p: PerfSummary | null, text: string) =>
  p ? `${verdictCell(p.worst)} ${h(text.slice(text.indexOf(' ') + 1))}` : 'n/a'

function hostsTable(f: FleetReport): string {
  const row = (i: number) => {
    const x = f.hosts[i]!
    const text = hostCells(x)
    return cellsOf(text, {
      3: perfCell(x.perf01, text[3]!),
      4: perfCell(x.perf02, text[4]!),
      5: perfCell(x.perf03, text[5]!),
      ...(x.badNodeIn.length ? { 7: `${verdictCell('flag')} ${h(text[7]!)}` } : {}),
    })
  }
  return `<h3>Hosts</h3>${table(HOST_HEAD, f.hosts.length, row)}`
}

async function measurementSection(m: ReturnType<typeof byMeasurement>[number], f: FleetReport, chart: boolean) {
  const hostRow = (i: number) => {
    const x = m.hosts[i]!
    const word = badNodeWord(x)
    return cellsOf(hostRowCells(x), {
      7: `${verdictCell(x.badNode.verdict)}${h(word.slice(x.badNode.verdict.length))} ${h(x.badNode.reason)}`,
    })
  }
  const svg = chart ? `<div class="chart">${await renderSvg(hostsSpec(f.comparison, m.measurement))}</div>` : ''
  return [
    `<h3>${h(m.measurement)}</h3>`,
    svg,
    table(HOST_ROW_HEAD, m.hosts.length, hostRow),
    table(MODEL_HEAD, m.models.length, (i) => cellsOf(modelCells(m.models[i]!))),
  ].join('\n')
}

async function shardRunSection(r: ShardRunReport, chart: boolean): Promise<string> {
  const row = (i: number) => {
    const s = r.shards[i]!
    return cellsOf(shardCells(s), s.state === 'completed' ? {} : { 3: verdictCell('failed') })
  }
  const svg =
    chart && r.shards.some((s) => s.wallMs) ? `<div class="chart">${await renderSvg(shardsSpec(r))}</div>` : ''
  return [
    `<h3>Sharded run ${h(shardRunTitle(r))}</h3>`,
    ...shardRunLines(r).map((l) => `<p><strong>${h(l)}</strong></p>`),
    svg,
    table(SHARD_HEAD, r.shards.length, row),
    ...shardRunNotes(r).map((l) => `<p class="note">${h(l)}</p>`),
  ].join('\n')
}

/** The section, or '' when the report has no fleet (one host's run without shards). */
export async function fleetSection(f: FleetReport | null): Promise<string> {
  if (!f) return ''
  const parts = [
    f.sources.length
      ? `<h3>Directories merged</h3>${table(SOURCE_HEAD, f.sources.length, (i) => cellsOf(sourceCells(f.sources[i]!)))}`
      : '',
    hostsTable(f),
  ]
  const measurements = byMeasurement(f)
  for (const [i, m] of measurements.entries()) parts.push(await measurementSection(m, f, i < MAX_FLEET_CHARTS))
  parts.push(
    measurements.length ? `<p><em>${h(BAD_NODE_RULE)}</em></p>` : '<p>No measurement ran on two or more hosts.</p>',
  )
  for (const [i, r] of f.shardRuns.entries()) parts.push(await shardRunSection(r, i < MAX_FLEET_CHARTS))
  if (f.notes.length) parts.push(`<ul>${f.notes.map((n) => `<li>${h(n)}</li>`).join('')}</ul>`)
  return `<h2>Fleet: hosts, GPU models and sharded runs</h2>\n${parts.filter((p) => p !== '').join('\n')}`
}

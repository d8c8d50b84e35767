/**
 * summary.md's fleet section: the directories merged, one row per host (PERF verdicts, projected production time, bad
 * node), per measurement that several hosts ran a row per host and per GPU model (seq/s, tok/s, J/seq with CIs, the
 * bad-node verdict and why), and per sharded run the answer in words (fleet-text.ts) and a row per shard. Pure.
 */
import type { FleetReport } from '../analyses/fleet.ts'
import type { ShardRunReport } from '../analyses/fleet-shards.ts'
import { escapeMarkdown as esc } from './escape.ts'
import {
  BAD_NODE_RULE,
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
import { shardRunLines, shardRunTitle } from './fleet-text.ts'
import { mdTable } from './markdown-table.ts'

function measurementTables(f: FleetReport): string {
  const parts = byMeasurement(f).map(
    (m) =>
      `### ${esc(m.measurement)}\n\n${mdTable(HOST_ROW_HEAD, m.hosts.map(hostRowCells))}\n\n${mdTable(MODEL_HEAD, m.models.map(modelCells))}\n`,
  )
  return parts.length
    ? `${parts.join('\n')}\n_${esc(BAD_NODE_RULE)}_\n`
    : '_No measurement ran on two or more hosts._\n'
}

function shardRunMarkdown(r: ShardRunReport): string {
  return [
    `### Sharded run ${esc(shardRunTitle(r))}`,
    '',
    ...shardRunLines(r).map((l) => `**${esc(l)}**\n`),
    mdTable(SHARD_HEAD, r.shards.map(shardCells)),
    ...shardRunNotes(r).map((l) => `\n${esc(l)}`),
    '',
  ].join('\n')
}

export function fleetMarkdown(f: FleetReport): string {
  const hosts = new Set(f.hosts.map((h) => h.host)).size
  const models = new Set(f.hosts.map((h) => h.gpuModel)).size
  return [
    `${hosts} host(s), ${models} GPU model(s), ${f.shardRuns.length} sharded run(s).\n`,
    f.sources.length ? `${mdTable(SOURCE_HEAD, f.sources.map(sourceCells))}\n` : '',
    `${mdTable(HOST_HEAD, f.hosts.map(hostCells))}\n`,
    measurementTables(f),
    ...f.shardRuns.map(shardRunMarkdown),
    ...(f.notes.length ? [f.notes.map((n) => `- ${esc(n)}`).join('\n'), ''] : []),
  ]
    .filter((p) => p !== '')
    .join('\n')
    .replace(/\n*$/, '\n')
}

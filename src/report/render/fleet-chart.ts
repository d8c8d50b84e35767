/**
 * Fleet charts (vega-lite, rendered to SVG by charts.ts renderSvg):
 * - per measurement: each host's seq/s (median, its 95% CI as a bar), one row per host, coloured by GPU model; each
 *   GPU model's pooled median as a dashed rule in its colour; bad nodes (slower) ringed in red and labelled;
 * - per sharded run: each shard's wall time (median and CI), the straggler in red, the fleet's time as a rule.
 */
import type { TopLevelSpec } from 'vega-lite'
import type { HostComparison } from '../analyses/fleet-hosts.ts'
import type { ShardRunReport } from '../analyses/fleet-shards.ts'

const WIDTH = 560
const ROW_PX = 22
const BAD = '#cf222e'

export function hostsSpec(comparison: HostComparison, measurement: string): TopLevelSpec {
  const hosts = comparison.hosts
    .filter((h) => h.measurement === measurement && h.sequencesPerS)
    .map((h) => ({
      host: h.host,
      model: h.gpuModel,
      rate: h.sequencesPerS!.value,
      low: h.sequencesPerS!.ci?.low ?? h.sequencesPerS!.value,
      high: h.sequencesPerS!.ci?.high ?? h.sequencesPerS!.value,
      bad: h.badNode.verdict === 'flag' && h.badNode.direction === 'slower',
      label: h.badNode.verdict === 'flag' ? `${h.badNode.direction === 'slower' ? 'bad node' : 'faster'}` : '',
    }))
  const models = comparison.models
    .filter((m) => m.measurement === measurement && m.sequencesPerS)
    .map((m) => ({ model: m.gpuModel, rate: m.sequencesPerS!.value }))
  const order = [...hosts]
    .sort((a, b) => a.model.localeCompare(b.model) || a.host.localeCompare(b.host))
    .map((h) => h.host)
  const y = { field: 'host', type: 'nominal' as const, sort: order, title: 'host' }
  const x = {
    field: 'rate',
    type: 'quantitative' as const,
    title: 'sequences per second (median of runs, 95% CI)',
    scale: { zero: false },
  }
  const color = { field: 'model', type: 'nominal' as const, title: 'GPU model', legend: { orient: 'bottom' as const } }
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: WIDTH,
    height: Math.max(60, ROW_PX * hosts.length),
    title: { text: `seq/s per host: ${measurement}` },
    layer: [
      {
        data: { values: models },
        mark: { type: 'rule', strokeDash: [5, 4], strokeWidth: 1.5 },
        encoding: { x, color },
      },
      {
        data: { values: hosts },
        mark: { type: 'rule', strokeWidth: 2 },
        encoding: { y, x: { ...x, field: 'low' }, x2: { field: 'high' }, color },
      },
      {
        data: { values: hosts },
        mark: { type: 'point', filled: true, size: 70, opacity: 1 },
        encoding: { y, x, color },
      },
      {
        data: { values: hosts.filter((h) => h.bad) },
        mark: { type: 'point', filled: false, size: 260, strokeWidth: 2, color: BAD },
        encoding: { y, x },
      },
      {
        data: { values: hosts.filter((h) => h.label) },
        mark: { type: 'text', align: 'left', dx: 12, color: BAD, fontWeight: 'bold' },
        encoding: { y, x, text: { field: 'label' } },
      },
    ],
  } as TopLevelSpec
}

export function shardsSpec(run: ShardRunReport): TopLevelSpec {
  const shards = run.shards
    .filter((s) => s.wallMs)
    .map((s) => ({
      shard: `shard ${s.index} (${s.host})`,
      seconds: s.wallMs!.value / 1000,
      low: (s.wallMs!.ci?.low ?? s.wallMs!.value) / 1000,
      high: (s.wallMs!.ci?.high ?? s.wallMs!.value) / 1000,
      straggler: run.straggler?.index === s.index ? 'straggler' : 'shard',
    }))
  const fleet = run.fleet ? [{ seconds: run.fleet.wallMs.value / 1000, text: 'fleet time (slowest shard)' }] : []
  const y = { field: 'shard', type: 'nominal' as const, sort: null, title: null }
  const x = {
    field: 'seconds',
    type: 'quantitative' as const,
    title: 'wall time per shard, s (median of runs, 95% CI)',
  }
  const color = {
    field: 'straggler',
    type: 'nominal' as const,
    scale: { domain: ['shard', 'straggler'], range: ['#0969da', BAD] },
    legend: null,
  }
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: WIDTH,
    height: Math.max(60, ROW_PX * shards.length),
    title: { text: `shards of ${run.configuration}, run ${run.runId}` },
    layer: [
      { data: { values: shards }, mark: { type: 'bar', opacity: 0.8 }, encoding: { y, x, color } },
      {
        data: { values: shards },
        mark: { type: 'rule', color: '#1b1f24' },
        encoding: { y, x: { ...x, field: 'low' }, x2: { field: 'high' } },
      },
      {
        data: { values: fleet },
        mark: { type: 'rule', color: BAD, strokeDash: [6, 4], strokeWidth: 1.5 },
        encoding: { x },
      },
      {
        data: { values: fleet },
        mark: { type: 'text', align: 'left', baseline: 'top', dx: 4, dy: 2, color: BAD },
        encoding: { x, y: { value: 0 }, text: { field: 'text' } },
      },
    ],
  } as TopLevelSpec
}

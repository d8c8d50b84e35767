/** The summary as text for a terminal (the CLI prints it at the end). Pure: data in, string out. */
import type { MetricStats } from './summary/metric-stats.ts'
import type { MonitorSummary, StageSummary } from './summary/summarize.ts'
import type { GpuWindowStats } from './summary/window-stats.ts'

const GIB = 2 ** 30

const pct = (stats: MetricStats | null, key: 'mean' | 'p95' = 'mean') => (stats ? `${stats[key].toFixed(1)}%` : '-')
const joules = (j: number | null) => (j === null ? '-' : `${j.toFixed(j < 100 ? 2 : 0)} J`)
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

function gpuLine(g: GpuWindowStats): string {
  const m = g.metrics
  const parts = [
    `util avg ${pct(m.utilPct)} p95 ${pct(m.utilPct, 'p95')}`,
    `GPM SM ${pct(m.gpmSmUtilPct)} tensor ${pct(m.gpmTensorUtilPct)} DRAM ${pct(m.gpmDramBwUtilPct)}`,
    `mem peak ${g.peakMemUsedBytes === null ? '-' : `${(g.peakMemUsedBytes / GIB).toFixed(1)} GiB`}`,
    `power avg ${m.powerMw ? `${(m.powerMw.mean / 1000).toFixed(0)} W` : '-'}`,
    `energy ${joules(g.energyJ)} (power integral ${joules(g.energyFromPowerJ)})`,
  ]
  if (g.longestIdle) parts.push(`longest idle ${seconds(g.longestIdle.durationMs)}`)
  if (g.throttle.samples > 0) parts.push(`THROTTLED ${g.throttle.samples} samples`)
  return parts.join(', ')
}

function stageLines(stage: StageSummary): string[] {
  const name = stage.stage ?? '(no stage)'
  const head = `  ${name}: ${seconds(stage.durationMs)}, energy ${joules(stage.energyJ)}${
    stage.jPerSequence === null ? '' : ` (${stage.jPerSequence.toFixed(3)} J/seq)`
  }`
  const excluded =
    stage.excludedGpus.length > 0 ? [`    not asked for: GPU ${stage.excludedGpus.map((g) => g.gpu).join(', ')}`] : []
  return [head, ...stage.gpus.map((g) => `    GPU ${g.gpu}: ${gpuLine(g)}`), ...excluded]
}

function flagLines(summary: MonitorSummary): string[] {
  const f = summary.flags
  const lines: string[] = []
  for (const t of f.throttled) lines.push(`throttled: GPU ${t.gpu} in ${t.stage ?? '(no stage)'}, ${t.samples} samples`)
  if (f.lostGpus.length) lines.push(`lost GPUs: ${f.lostGpus.join(', ')}`)
  if (f.unexpectedGpus.length) lines.push(`target used GPUs it was not asked for: ${f.unexpectedGpus.join(', ')}`)
  if (f.idleRequestedGpus.length) lines.push(`asked-for GPUs the target never used: ${f.idleRequestedGpus.join(', ')}`)
  if (summary.attribution.state === 'attributed')
    for (const p of summary.attribution.foreignProcesses)
      lines.push(`foreign process on GPU ${p.gpu}: pid ${p.pid} (${p.comm ?? '?'}), measurement spoiled`)
  for (const e of summary.errors) lines.push(`errors: ${e.metric} on GPU ${e.gpu ?? '-'} x${e.count}: ${e.first}`)
  return lines.map((line) => `! ${line}`)
}

export function formatSummary(summary: MonitorSummary): string {
  const e = summary.energy
  const lines = [
    `GPU monitor: ${seconds(summary.durationMs)} at ${summary.intervalMs} ms, GPUs ${summary.sampledGpus.join(', ')}` +
      (summary.logPath ? `, log ${summary.logPath}` : ''),
    `energy (asked-for GPUs): ${joules(e.totalJ)}, power integral ${joules(e.fromPowerJ)}` +
      (e.jPerSequence === null ? '' : `, ${e.jPerSequence.toFixed(3)} J per sequence (${e.sequenceCount} sequences)`),
    ...summary.gpus.map((g) => `GPU ${g.gpu}${g.device?.name ? ` (${g.device.name})` : ''}: ${gpuLine(g)}`),
    'stages:',
    ...summary.stages.flatMap(stageLines),
    ...flagLines(summary),
  ]
  return `${lines.join('\n')}\n`
}

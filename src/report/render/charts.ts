/**
 * Chart specs (vega-lite) and their server-side SVG rendering (vega, renderer 'none': no canvas, no DOM, no network).
 * Series are reduced to at most MAX_CHART_POINTS bucket means per GPU and metric before they reach a chart.
 */
import * as vega from 'vega'
import { compile, type TopLevelSpec } from 'vega-lite'
import type { SampleRecord } from '../../monitor/records.ts'
import type { MeasuredRun } from '../../results/schema/index.ts'
import type { BottleneckGroup } from '../analyses/bottleneck.ts'
import type { ScalingCurve } from '../analyses/scaling.ts'

export const MAX_CHART_POINTS = 300
const WIDTH = 560

export const TIMELINE_METRICS: [string, (s: SampleRecord) => number | null][] = [
  ['GPU utilization (%)', (s) => s.utilPct],
  ['SM utilization, GPM (%)', (s) => s.gpm?.smUtilPct ?? null],
  ['memory used (GiB)', (s) => (s.memUsedBytes === null ? null : s.memUsedBytes / 2 ** 30)],
  ['power (W)', (s) => (s.powerMw === null ? null : s.powerMw / 1000)],
]

interface Point {
  tS: number
  gpu: string
  value: number
}

/** Bucket means of one metric, per GPU, over the run's time span. */
export function bucketSeries(
  samples: readonly SampleRecord[],
  get: (s: SampleRecord) => number | null,
  buckets = MAX_CHART_POINTS,
): Point[] {
  if (samples.length === 0) return []
  let maxMs = 0
  for (const s of samples) if (s.tMs > maxMs) maxMs = s.tMs
  const width = Math.max(1, maxMs / buckets)
  const sums = new Map<string, { sum: number; n: number }>()
  for (const s of samples) {
    const value = get(s)
    if (value === null) continue
    const key = `${s.gpu}|${Math.min(buckets - 1, Math.floor(s.tMs / width))}`
    const cell = sums.get(key)
    if (cell) {
      cell.sum += value
      cell.n++
    } else sums.set(key, { sum: value, n: 1 })
  }
  return [...sums].map(([key, { sum, n }]) => {
    const [gpu, bucket] = key.split('|')
    return { tS: ((Number(bucket) + 0.5) * width) / 1000, gpu: `GPU ${gpu}`, value: sum / n }
  })
}

function stageBands(run: MeasuredRun): { stage: string; start: number; end: number }[] {
  return (run.gpu?.stages ?? [])
    .filter((s) => s.stage !== null)
    .flatMap((s) => s.windows.map((w) => ({ stage: s.stage as string, start: w.startMs / 1000, end: w.endMs / 1000 })))
}

export function timelineSpec(run: MeasuredRun, samples: readonly SampleRecord[]): TopLevelSpec {
  const bands = stageBands(run)
  const charts = TIMELINE_METRICS.map(([title, get]) => ({
    width: WIDTH,
    height: 90,
    title,
    layer: [
      {
        data: { values: bands },
        mark: { type: 'rect' as const, opacity: 0.18 },
        encoding: {
          x: { field: 'start', type: 'quantitative' as const, title: 'time (s)' },
          x2: { field: 'end' },
          color: { field: 'stage', type: 'nominal' as const, legend: { title: 'stage', orient: 'right' as const } },
        },
      },
      {
        data: { values: bucketSeries(samples, get) },
        mark: { type: 'line' as const, strokeWidth: 1.2 },
        encoding: {
          x: { field: 'tS', type: 'quantitative' as const },
          y: { field: 'value', type: 'quantitative' as const, title: null },
          stroke: { field: 'gpu', type: 'nominal' as const, legend: { title: 'GPU' } },
        },
      },
    ],
  }))
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    vconcat: charts,
    resolve: { scale: { color: 'independent' } },
  } as TopLevelSpec
}

export function scalingSpec(curve: ScalingCurve): TopLevelSpec {
  const points = curve.points.filter((p) => p.speedup !== null)
  const values = points.map((p) => ({
    gpus: p.gpuCount,
    speedup: p.speedup,
    low: p.speedupCi?.low ?? p.speedup,
    high: p.speedupCi?.high ?? p.speedup,
    ideal: p.gpuCount,
  }))
  const x = { field: 'gpus', type: 'quantitative' as const, title: 'GPUs', axis: { tickMinStep: 1 } }
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: 320,
    height: 220,
    title: 'speedup over 1 GPU (95% CI), ideal dashed',
    data: { values },
    layer: [
      {
        mark: { type: 'line', strokeDash: [4, 4], color: '#888' },
        encoding: { x, y: { field: 'ideal', type: 'quantitative', title: 'speedup' } },
      },
      {
        mark: { type: 'errorbar', ticks: true },
        encoding: { x, y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' } },
      },
      { mark: { type: 'line', point: true }, encoding: { x, y: { field: 'speedup', type: 'quantitative' } } },
    ],
  } as TopLevelSpec
}

export function breakdownSpec(groups: readonly BottleneckGroup[]): TopLevelSpec {
  const values = groups.flatMap((g) =>
    g.stages.map((s) => ({
      group: `${g.recordIds.join(', ')} / ${g.group}`,
      stage: s.stage,
      seconds: s.durationMs / 1000,
    })),
  )
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: WIDTH,
    title: 'time per stage (mean of the runs)',
    data: { values },
    mark: 'bar',
    encoding: {
      y: { field: 'group', type: 'nominal', title: null },
      x: { field: 'seconds', type: 'quantitative', title: 'seconds', stack: 'zero' },
      color: { field: 'stage', type: 'nominal' },
    },
  } as TopLevelSpec
}

/** Renders a vega-lite spec to an SVG string on the server. */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' })
  try {
    return await view.toSVG()
  } finally {
    view.finalize()
  }
}

/**
 * The capacity chart (vega-lite, rendered to SVG by charts.ts renderSvg): projected wall time against input size, both
 * on log scales (a run spans seconds at 100 sequences to days at 60 M), one line per configuration with its 95% CI
 * band, the PERF-01 limit as a labelled rule, the target sizes as labelled vertical rules, the measured medians as
 * points, and each finite break-even size inside the plotted range as a labelled point on the baseline's line.
 */
import type { TopLevelSpec } from 'vega-lite'
import type { CapacityEntry } from '../../capacity/report-analysis.ts'
import { columnTitle, fmtCount, fmtHours } from './capacity-text.ts'

const HOUR_MS = 3_600_000
const WIDTH = 640
const HEIGHT = 380

/** Axis labels in the unit that reads best at each tick (the axis is hours): `10 s`, `10 min`, `10 h`. */
const HOURS_LABEL =
  "datum.value < 1/60 ? format(datum.value * 3600, '~g') + ' s' : datum.value < 1 ? format(datum.value * 60, '~g') + ' min' : format(datum.value, '~g') + ' h'"

/** Ticks a decade apart where the unit changes: a log axis's own ticks (1-9 per decade) crowd and read 8.33 h. */
const HOUR_TICKS = [1 / 3600, 10 / 3600, 1 / 60, 10 / 60, 1, 10, 100, 1000, 10_000]

const decades = (min: number, max: number) => {
  const out: number[] = []
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) out.push(10 ** e)
  return out
}

const xOf = (values: number[]) => ({
  field: 'sequences',
  type: 'quantitative' as const,
  scale: { type: 'log' as const },
  title: 'input size (sequences, log scale)',
  axis: { format: '~s', values, grid: true },
})

const yOf = (hours: number[]) => ({
  field: 'hours',
  type: 'quantitative' as const,
  scale: { type: 'log' as const },
  title: 'wall time (log scale)',
  axis: {
    labelExpr: HOURS_LABEL,
    values: HOUR_TICKS.filter((t) => t >= Math.min(...hours) / 10 && t <= Math.max(...hours) * 10),
    grid: true,
  },
})

/** The baseline's wall time (ms) at `sequences`, from its wall line (the curve's point estimates lie on it). */
function baselineWallMs(entry: CapacityEntry, baseline: string, sequences: number): number | null {
  const row = entry.configurations.find((c) => c.label === baseline)
  return row ? row.wallFixedMs.value + row.wallMsPerSequence.value * sequences : null
}

function breakEvens(entry: CapacityEntry, minX: number, maxX: number) {
  return entry.comparisons.flatMap((c) => {
    const at = c.breakEven.sequences
    if (at === null || at < minX || at > maxX) return []
    const wallMs = baselineWallMs(entry, c.baseline, at)
    if (wallMs === null || wallMs <= 0) return []
    return [
      {
        sequences: at,
        hours: wallMs / HOUR_MS,
        text: `${c.candidate}: break-even ${fmtCount(at)}`,
      },
    ]
  })
}

export function capacitySpec(entry: CapacityEntry): TopLevelSpec {
  // A log axis cannot show a CI end at or below 0: such band points are left out, the line stays.
  const curve = entry.curves.map((p) => ({
    config: p.label,
    gpuCount: p.gpuCount,
    sequences: p.sequences,
    hours: p.wallMs / HOUR_MS,
    low: p.lowMs !== null && p.lowMs > 0 ? p.lowMs / HOUR_MS : null,
    high: p.highMs !== null && p.highMs > 0 ? p.highMs / HOUR_MS : null,
  }))
  const xs = curve.map((p) => p.sequences)
  const [minX, maxX] = [Math.min(...xs), Math.max(...xs)]
  const order = [...entry.configurations].sort((a, b) => a.gpuCount - b.gpuCount).map((c) => c.label)
  const color = {
    field: 'config',
    type: 'nominal' as const,
    scale: { domain: order },
    title: 'configuration',
    legend: { orient: 'top-left' as const, fillColor: 'white', padding: 6, symbolOpacity: 1 },
  }
  const measured = entry.configurations.flatMap((c) =>
    c.measured.map((m) => ({ config: c.label, sequences: m.sequences, hours: m.medianWallMs / HOUR_MS })),
  )
  const targets = entry.columns
    .filter((c) => c.role !== 'measured')
    .map((c) => ({ sequences: c.sequences, text: columnTitle(c).replace(' sequences', '') }))
  const limit = [
    { hours: entry.targetMs / HOUR_MS, sequences: minX, text: `PERF-01 limit ${fmtHours(entry.targetMs)}` },
  ]
  const breakEven = breakEvens(entry, minX, maxX)
  const allX = [...xs, ...measured.map((m) => m.sequences)]
  const x = xOf(decades(Math.min(...allX), Math.max(...allX)))
  const y = yOf([
    ...curve.flatMap((p) => [p.hours, p.low ?? p.hours, p.high ?? p.hours]),
    ...measured.map((m) => m.hours),
  ])
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: WIDTH,
    height: HEIGHT,
    title: { text: 'projected wall time by input size (lines: size model; bands: 95% CI; dots: measured medians)' },
    layer: [
      {
        data: { values: curve.filter((p) => p.low !== null && p.high !== null) },
        mark: { type: 'area', opacity: 0.18 },
        encoding: { x, y: { ...y, field: 'low' }, y2: { field: 'high' }, color },
      },
      {
        data: { values: curve },
        mark: { type: 'line', strokeWidth: 2 },
        encoding: { x, y, color, detail: { field: 'config' } },
      },
      {
        data: { values: measured },
        mark: { type: 'point', filled: true, size: 50, opacity: 1 },
        encoding: { x, y, color },
      },
      {
        data: { values: limit },
        mark: { type: 'rule', color: '#cf222e', strokeDash: [6, 4], strokeWidth: 1.5 },
        encoding: { y },
      },
      {
        data: { values: limit },
        mark: { type: 'text', align: 'left', baseline: 'bottom', dx: 4, dy: -3, color: '#cf222e', fontWeight: 'bold' },
        encoding: { x, y, text: { field: 'text' } },
      },
      {
        data: { values: targets },
        mark: { type: 'rule', color: '#57606a', strokeDash: [2, 3] },
        encoding: { x },
      },
      {
        data: { values: targets },
        mark: { type: 'text', angle: 270, align: 'left', baseline: 'bottom', dx: 4, dy: -3, color: '#57606a' },
        encoding: { x, y: { value: HEIGHT }, text: { field: 'text' } },
      },
      {
        data: { values: breakEven },
        mark: { type: 'point', shape: 'diamond', filled: true, size: 110, color: '#1b1f24' },
        encoding: { x, y },
      },
      {
        data: { values: breakEven },
        mark: { type: 'text', align: 'left', baseline: 'top', dx: 8, dy: 4, color: '#1b1f24' },
        encoding: { x, y, text: { field: 'text' } },
      },
    ],
  } as TopLevelSpec
}

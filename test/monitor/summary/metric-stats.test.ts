// Property: the summary's statistics equal a direct computation over the samples (mean as sum / n, min, max, and
// numpy's default linear quantile written out here independently of src/measure).
import fc from 'fast-check'
import { expect, test } from 'vitest'
import type { MonitorRecord } from '../../../src/monitor/records.ts'
import { metricStats } from '../../../src/monitor/summary/metric-stats.ts'
import { summarizeRecords } from '../../../src/monitor/summary/summarize.ts'
import { header, sample } from '../support/records.ts'

function linearQuantile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  const h = (sorted.length - 1) * p
  const lo = Math.floor(h)
  const hi = Math.min(lo + 1, sorted.length - 1)
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!)
}

function direct(values: number[]) {
  return {
    n: values.length,
    mean: values.reduce((a, b) => a + b, 0) / values.length,
    min: Math.min(...values),
    max: Math.max(...values),
    p50: linearQuantile(values, 0.5),
    p95: linearQuantile(values, 0.95),
  }
}

function expectClose(actual: ReturnType<typeof direct> | null, expected: ReturnType<typeof direct>): void {
  expect(actual).not.toBeNull()
  for (const key of Object.keys(expected) as (keyof typeof expected)[])
    expect(actual![key]).toBeCloseTo(expected[key], 6)
}

const reading = fc.option(fc.integer({ min: 0, max: 100 }), { nil: null, freq: 5 })

test('property: per-GPU and per-stage stats of every metric equal a direct computation', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({ util: reading, powerW: fc.option(fc.double({ min: 0, max: 700, noNaN: true }), { nil: null }) }),
        {
          minLength: 1,
          maxLength: 60,
        },
      ),
      fc.integer({ min: 1, max: 59 }),
      (rows, cut) => {
        const records: MonitorRecord[] = [header([0]), { kind: 'stage', tMs: cut * 10, stage: 'busy' }]
        rows.forEach((row, i) => {
          const powerMw = row.powerW === null ? null : row.powerW * 1000
          records.push(sample(0, i * 10, { utilPct: row.util, powerMw }))
        })
        const summary = summarizeRecords(records)
        const present = (pick: (r: (typeof rows)[number]) => number | null, from = 0, to = rows.length) =>
          rows
            .slice(from, to)
            .map(pick)
            .filter((v): v is number => v !== null)
        const checks: [ReturnType<typeof direct> | null, number[]][] = [
          [summary.gpus[0]!.metrics.utilPct, present((r) => r.util)],
          [summary.gpus[0]!.metrics.powerMw, present((r) => (r.powerW === null ? null : r.powerW * 1000))],
        ]
        const busy = summary.stages.find((s) => s.stage === 'busy')
        if (busy) checks.push([busy.gpus[0]!.metrics.utilPct, present((r) => r.util, cut)])
        for (const [actual, values] of checks) {
          if (values.length === 0) expect(actual).toBeNull()
          else expectClose(actual, direct(values))
        }
      },
    ),
    { numRuns: 200 },
  )
})

test('no readings at all give null, not zeros', () => {
  expect(metricStats([null, null])).toBeNull()
})

import { describe, expect, test } from 'vitest'
import { compareMetrics } from '../../src/measure/compare-metrics.ts'

const base = [100, 101, 99, 100.5, 99.5, 100.2]
const slower = base.map((v) => v * 1.2)

describe('compareMetrics', () => {
  test('applies per-metric thresholds and directions', () => {
    const results = compareMetrics([
      { name: 'total wall time', candidate: slower, baseline: base },
      { name: 'throughput', candidate: slower, baseline: base, direction: 'higher-is-better' },
      { name: 'loose', candidate: slower, baseline: base, threshold: 0.5 },
    ])
    expect(results.map((r) => [r.name, r.verdict])).toEqual([
      ['total wall time', 'regressed'],
      ['throughput', 'improved'],
      ['loose', 'unchanged'],
    ])
  })

  test("a metric's result does not depend on the other metrics or their order", () => {
    const metric = { name: 'esm2', candidate: [1, 2, 3, 4, 5], baseline: [1.5, 2.5, 3.5, 4.5, 5.5] }
    const other = { name: 'dnabert', candidate: base, baseline: base }
    const alone = compareMetrics([metric])[0]
    const second = compareMetrics([other, metric])[1]
    expect(second).toEqual(alone)
  })

  test('names the metric when its input is bad, keeping the cause', () => {
    expect(() => compareMetrics([{ name: 'esm2', candidate: [Number.NaN], baseline: [1] }])).toThrow(
      /metric "esm2": candidate runs: value at index 0/,
    )
  })
})

/**
 * Performance targets of src/measure (issue 8): a bootstrap CI of the median with 10,000 resamples of 100 values in
 * under 20 ms, and the full regression comparison of 50 metrics (7 runs a side: Mann-Whitney + bootstrap ratio CI)
 * in under 200 ms. Run: npx vitest bench --project 'unit (bench)' benchmarks/measure.bench.ts
 */
import { expect, test } from 'vitest'
import { compareMetrics, type MetricRuns } from '../src/measure/compare-metrics.ts'
import { medianWithCi } from '../src/measure/median-ci.ts'
import { createRandomSource } from '../src/measure/rng.ts'
import { toSorted } from '../src/measure/samples.ts'

const random = createRandomSource('bench-data')
const hundredValues = toSorted(Array.from({ length: 100 }, () => 1000 + 50 * random()))
const fiftyMetrics: MetricRuns[] = Array.from({ length: 50 }, (_, i) => ({
  name: `metric-${i}`,
  candidate: Array.from({ length: 7 }, () => 100 * (1 + 0.02 * (random() - 0.5)) * (i % 5 === 0 ? 1.05 : 1)),
  baseline: Array.from({ length: 7 }, () => 100 * (1 + 0.02 * (random() - 0.5))),
}))

test('bootstrap CI of the median: 10,000 resamples of 100 values < 20 ms', async ({ bench }) => {
  const result = await bench('bootstrap median CI, n=100, B=10,000', () => {
    medianWithCi(hundredValues, {
      method: 'bootstrap-percentile',
      resamples: 10_000,
      random: createRandomSource('bench'),
    })
  }).run({ iterations: 50, warmupIterations: 5, time: 0 })
  console.log(`bootstrap CI: mean ${result.latency.mean.toFixed(2)} ms, p99 ${result.latency.p99.toFixed(2)} ms`)
  expect(result.latency.mean).toBeLessThan(20)
})

test('regression comparison of 50 metrics < 200 ms', async ({ bench }) => {
  const result = await bench('compareMetrics, 50 metrics x 7 runs a side', () => {
    compareMetrics(fiftyMetrics, { threshold: 0.02 })
  }).run({ iterations: 20, warmupIterations: 3, time: 0 })
  console.log(
    `50-metric comparison: mean ${result.latency.mean.toFixed(2)} ms, p99 ${result.latency.p99.toFixed(2)} ms`,
  )
  expect(result.latency.mean).toBeLessThan(200)
})

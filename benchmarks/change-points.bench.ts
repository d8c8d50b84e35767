/**
 * Performance target (issue 19): `history changes` over 10,000 runs x 50 metrics in under 2 s on a 2-core CI machine,
 * database read included; the detector's share is budgeted at 1 s. Input: 50 series of 10,000 points, one run a commit
 * (every point is a possible change: the most work), CV 2% normal noise, two planted steps each (+12% at point 3,000,
 * -15% at 7,000), the default 10% threshold and 199 permutations. Timed: detectChangePoints over all 50 series.
 * Run: npx vitest bench --project 'unit (bench)' benchmarks/change-points.bench.ts
 */
import { expect, test } from 'vitest'
import { detectChangePoints } from '../src/measure/change-points.ts'
import { createRandomSource } from '../src/measure/rng.ts'

const SERIES = 50
const POINTS = 10_000
const BUDGET_MS = 1000

const random = createRandomSource('change-points-bench')
function standardNormal(): number {
  let u = 0
  while (u === 0) u = random()
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random())
}
const keys = Array.from({ length: POINTS }, (_, i) => `commit-${i}`)
const series = Array.from({ length: SERIES }, () =>
  Array.from({ length: POINTS }, (_, i) => {
    const level = i < 3000 ? 100 : i < 7000 ? 112 : 112 * 0.85
    return level * (1 + 0.02 * standardNormal())
  }),
)

test(`change points of ${SERIES} series x ${POINTS} points < ${BUDGET_MS} ms`, async ({ bench }) => {
  let found = 0
  const result = await bench(`detectChangePoints, ${SERIES} x ${POINTS.toLocaleString('en')} points`, () => {
    found = 0
    for (const values of series)
      found += detectChangePoints(values, keys, { minRelativeEffect: 0.1, better: 'lower' }).length
  }).run({ iterations: 10, warmupIterations: 2, time: 0 })
  console.log(
    `change points: mean ${result.latency.mean.toFixed(0)} ms, p99 ${result.latency.p99.toFixed(0)} ms, ${found} changes found (${2 * SERIES} planted)`,
  )
  expect(found).toBe(2 * SERIES)
  expect(result.latency.mean).toBeLessThan(BUDGET_MS)
})

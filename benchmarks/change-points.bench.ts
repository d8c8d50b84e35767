/**
 * `history changes`' detector (issue 19's target: 10,000 runs x 50 metrics in under 2 s on a 2-core CI machine,
 * database read included; the detector's share budgeted at 1 s, printed beside the figures). Input: 50 series of
 * 10,000 points, one run a commit (every point is a possible change: the most work), CV 2% normal noise, two planted
 * steps each (+12% at point 3,000, -15% at 7,000), the default 10% threshold and 199 permutations. Timed:
 * detectChangePoints over all 50 series, in interleaved pairs with the pair loop of the energy statistic run plainly
 * over every window of every series, CALIBRATION_PASSES times (support/calibrations/pair-distances.ts), this
 * process's CPU time. It fails when a planted step is missed, or when it is slower than this machine's measurements
 * say it was (support/judgement.ts: its saved baseline, or `--against REV`'s detector).
 * Run: npx vitest bench --project 'unit (bench)' benchmarks/change-points.bench.ts
 */
import { expect, test } from 'vitest'
import { createRandomSource } from '../src/measure/rng.ts'
import { importFrom } from './support/against/checkout.ts'
import { windowPairDistances } from './support/calibrations/pair-distances.ts'
import { expectNoRegression } from './support/judgement.ts'
import { annotateRatio, ratioBench } from './support/ratio-bench.ts'
import { benchSize } from './support/smoke.ts'

type ChangePoints = typeof import('../src/measure/change-points.ts')

const SERIES = benchSize(50, 5)
const POINTS = 10_000
const BUDGET_MS = 1000
/** Passes of the calibration's pair loop over all series: one takes about a sixteenth of the detector's time. */
const CALIBRATION_PASSES = 10

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
const seriesArrays = series.map((values) => Float64Array.from(values))

test(`change points of ${SERIES} series x ${POINTS} points (issue 19's budget ${BUDGET_MS} ms)`, async ({
  bench,
  annotate,
}) => {
  let found = 0
  const result = await ratioBench(
    bench,
    async (root) => {
      const { detectChangePoints } = await importFrom<ChangePoints>(root, 'src/measure/change-points.ts')
      return {
        run: () => {
          found = 0
          for (const values of series)
            found += detectChangePoints(values, keys, { minRelativeEffect: 0.1, better: 'lower' }).length
        },
      }
    },
    {
      run: () => {
        let total = 0
        for (let pass = 0; pass < CALIBRATION_PASSES; pass++)
          for (const values of seriesArrays) total += windowPairDistances(values)
        return total
      },
    },
    {
      subjectName: `detectChangePoints, ${SERIES} x ${POINTS.toLocaleString('en')} points`,
      calibrationName: `energy pair loop over every window x ${CALIBRATION_PASSES}, ${SERIES} x ${POINTS.toLocaleString('en')} points`,
      judgeOn: 'cpu',
      pairs: 10,
      warmupPairs: 2,
    },
  )
  await annotateRatio(
    annotate,
    'change points',
    result,
    `detector mean ${result.subjectMeanMs.toFixed(0)} ms (issue 19's budget ${BUDGET_MS} ms), pair loop mean ${result.calibrationMeanMs.toFixed(0)} ms; ${found} changes found (${2 * SERIES} planted)`,
  )
  expect(found).toBe(2 * SERIES)
  expectNoRegression(result.judgement, 'change points')
})

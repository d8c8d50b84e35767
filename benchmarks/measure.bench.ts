/**
 * src/measure's statistics (issue 8's targets, printed beside the figures: a bootstrap CI of the median with 10,000
 * resamples of 100 values under 20 ms; the regression comparison of 50 metrics, 7 runs a side, under 200 ms). Each
 * runs in interleaved pairs with the textbook way to compute the same statistics (support/calibrations/bootstrap.ts:
 * a sorted copy per resample, Mann-Whitney by counting pairs), this process's CPU time, and is judged only against
 * this machine (support/judgement.ts): its saved baseline, or `--against REV`'s subject.
 * Run: npx vitest bench --project 'unit (bench)' benchmarks/measure.bench.ts
 */
import { test } from 'vitest'
import type { MetricRuns } from '../src/measure/compare-metrics.ts'
import { REGRESSION_RESAMPLES } from '../src/measure/regression.ts'
import { createRandomSource } from '../src/measure/rng.ts'
import { toSorted } from '../src/measure/samples.ts'
import { importFrom } from './support/against/checkout.ts'
import { textbookComparison, textbookMedianCi } from './support/calibrations/bootstrap.ts'
import { expectNoRegression } from './support/judgement.ts'
import { annotateRatio, ratioBench, type SubjectArm } from './support/ratio-bench.ts'

type MedianCi = typeof import('../src/measure/median-ci.ts')
type Rng = typeof import('../src/measure/rng.ts')
type CompareMetrics = typeof import('../src/measure/compare-metrics.ts')

const random = createRandomSource('bench-data')
const hundredValues = toSorted(Array.from({ length: 100 }, () => 1000 + 50 * random()))
const fiftyMetrics: MetricRuns[] = Array.from({ length: 50 }, (_, i) => ({
  name: `metric-${i}`,
  candidate: Array.from({ length: 7 }, () => 100 * (1 + 0.02 * (random() - 0.5)) * (i % 5 === 0 ? 1.05 : 1)),
  baseline: Array.from({ length: 7 }, () => 100 * (1 + 0.02 * (random() - 0.5))),
}))

const bootstrapSubject: SubjectArm = async (root) => {
  const { medianWithCi } = await importFrom<MedianCi>(root, 'src/measure/median-ci.ts')
  const rng = await importFrom<Rng>(root, 'src/measure/rng.ts')
  return {
    run: () =>
      medianWithCi(hundredValues, {
        method: 'bootstrap-percentile',
        resamples: 10_000,
        random: rng.createRandomSource('bench'),
      }),
  }
}

const comparisonSubject: SubjectArm = async (root) => {
  const { compareMetrics } = await importFrom<CompareMetrics>(root, 'src/measure/compare-metrics.ts')
  return { run: () => compareMetrics(fiftyMetrics, { threshold: 0.02 }) }
}

test('bootstrap CI of the median: 10,000 resamples of 100 values (issue 8: < 20 ms)', async ({ bench, annotate }) => {
  const result = await ratioBench(
    bench,
    bootstrapSubject,
    { run: () => textbookMedianCi(hundredValues, 10_000) },
    {
      subjectName: 'bootstrap median CI, n=100, B=10,000',
      calibrationName: 'textbook bootstrap median CI (sorted resamples), n=100, B=10,000',
      judgeOn: 'cpu',
      pairs: 50,
      warmupPairs: 5,
    },
  )
  await annotateRatio(
    annotate,
    'bootstrap CI',
    result,
    `bootstrap CI mean ${result.subjectMeanMs.toFixed(2)} ms (issue 8: < 20 ms), textbook ${result.calibrationMeanMs.toFixed(2)} ms`,
  )
  expectNoRegression(result.judgement, 'bootstrap CI')
})

test('regression comparison of 50 metrics (issue 8: < 200 ms)', async ({ bench, annotate }) => {
  const result = await ratioBench(
    bench,
    comparisonSubject,
    { run: () => textbookComparison(fiftyMetrics, REGRESSION_RESAMPLES) },
    {
      subjectName: 'compareMetrics, 50 metrics x 7 runs a side',
      calibrationName: `textbook Mann-Whitney + bootstrap ratio CI (sorted resamples, B=${REGRESSION_RESAMPLES}), 50 metrics`,
      judgeOn: 'cpu',
      pairs: 20,
      warmupPairs: 3,
    },
  )
  await annotateRatio(
    annotate,
    '50-metric comparison',
    result,
    `compareMetrics mean ${result.subjectMeanMs.toFixed(2)} ms (issue 8: < 200 ms), textbook ${result.calibrationMeanMs.toFixed(2)} ms`,
  )
  expectNoRegression(result.judgement, '50-metric comparison')
})

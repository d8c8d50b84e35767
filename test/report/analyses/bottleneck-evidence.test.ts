import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { median, toSorted } from '../../../src/measure/index.ts'
import { evidenceFor } from '../../../src/report/analyses/bottleneck-evidence.ts'
import type { CountedRun } from '../../../src/results/runs.ts'
import type { ResultRecord } from '../../../src/results/schema/index.ts'
import { loadDemo } from '../support/demo.ts'

const { thresholds } = (await loadDemo()).records[0] as ResultRecord
const STAGE = 'ESM-2 Feature Extraction'

interface GpuReading {
  util: number | null
  sm: number | null
  idleMs: number | null
}

const reading = fc.record({
  util: fc.option(fc.double({ min: 0, max: 100, noNaN: true })),
  sm: fc.option(fc.double({ min: 0, max: 100, noNaN: true })),
  idleMs: fc.option(fc.double({ min: 0, max: 1e5, noNaN: true })),
})
/** A run: null (no window for the stage) or the window's per-GPU readings and throttled samples. */
const runShape = fc.option(fc.record({ gpus: fc.array(reading, { maxLength: 4 }), throttled: fc.nat(5) }))

function countedRun(shape: { gpus: GpuReading[]; throttled: number } | null): CountedRun {
  const stats = (mean: number | null) =>
    mean === null ? null : { n: 1, mean, min: mean, max: mean, p50: mean, p95: mean }
  const window = shape && {
    stage: STAGE,
    throttledSamples: shape.throttled,
    gpus: shape.gpus.map((g, gpu) => ({
      gpu,
      metrics: { utilPct: stats(g.util), gpmSmUtilPct: stats(g.sm) },
      longestIdle: g.idleMs === null ? null : { durationMs: g.idleMs },
    })),
  }
  const stages = window ? [{ stage: 'other', gpus: [], throttledSamples: 99 }, window] : []
  return { recordId: 'r', group: 'g', index: 0, measured: { gpu: { stages } } } as unknown as CountedRun
}

/** The plain reading of the rule table's inputs: per run, means over the GPUs; over runs, medians. */
function reference(shapes: ({ gpus: GpuReading[]; throttled: number } | null)[]) {
  const med = (v: number[]) => (v.length === 0 ? null : median(toSorted(v)))
  const mean = (v: number[]) => (v.length === 0 ? null : v.reduce((a, b) => a + b, 0) / v.length)
  const runs = shapes.filter((s) => s !== null && s.gpus.length > 0) as { gpus: GpuReading[]; throttled: number }[]
  const per = runs.map((r) => {
    const utils = r.gpus.flatMap((g) => (g.util === null ? [] : [g.util]))
    const idles = r.gpus.flatMap((g) => (g.idleMs === null ? [] : [g.idleMs]))
    const m = mean(utils)
    // These windows' statistics have max = mean: a GPU worked when its mean reaches the idle line (10%).
    return {
      working: utils.length > 0 ? utils.filter((u) => u >= 10).length : null,
      busiest: utils.length > 0 ? Math.max(...utils) : null,
      util: m,
      sm: mean(r.gpus.flatMap((g) => (g.sm === null ? [] : [g.sm]))),
      idle: idles.length > 0 ? Math.max(...idles) : null,
      spread: utils.length > 1 && m ? (Math.max(...utils) - Math.min(...utils)) / m : null,
    }
  })
  const pick = (k: 'util' | 'sm' | 'idle' | 'spread' | 'working' | 'busiest') =>
    med(per.flatMap((p) => (p[k] === null ? [] : [p[k] as number])))
  return {
    utilPct: pick('util'),
    smUtilPct: pick('sm'),
    longestIdleMs: pick('idle'),
    gpuSpread: pick('spread'),
    workingGpus: pick('working'),
    busiestGpuUtilPct: pick('busiest'),
    throttledSamples: runs.reduce((n, r) => n + r.throttled, 0),
  }
}

/** Both null, or equal up to the order of floating-point sums. */
function expectClose(actual: number | null, expected: number | null): void {
  expect(actual === null).toBe(expected === null)
  if (actual !== null) expect(actual).toBeCloseTo(expected as number, 9)
}

describe('bottleneck evidence', () => {
  test('medians over runs of per-run GPU means, idle maxima and spreads; runs without the window left out', () => {
    fc.assert(
      fc.property(fc.array(runShape, { maxLength: 5 }), (shapes) => {
        const e = evidenceFor(shapes.map(countedRun), STAGE, 0.5, 1_000, thresholds)
        const expected = reference(shapes)
        expectClose(e.utilPct, expected.utilPct)
        expectClose(e.smUtilPct, expected.smUtilPct)
        expect(e.longestIdleMs).toBe(expected.longestIdleMs)
        // These windows have the older shape (no start-up/gap split): the longest idle stands in for the gap.
        expect(e.innerIdleMs).toBe(expected.longestIdleMs)
        expect(e.leadingIdleMs).toBeNull()
        expectClose(e.gpuSpread, expected.gpuSpread)
        expectClose(e.workingGpus, expected.workingGpus)
        expectClose(e.busiestGpuUtilPct, expected.busiestGpuUtilPct)
        expect(e.throttledSamples).toBe(expected.throttledSamples)
      }),
    )
  })

  test('windows that split start-up from gaps: maxima over GPUs, medians over runs', () => {
    const run = (gpus: { inner: number | null; leading: number | null }[]) =>
      ({
        recordId: 'r',
        group: 'g',
        index: 0,
        measured: {
          gpu: {
            stages: [
              {
                stage: STAGE,
                throttledSamples: 0,
                gpus: gpus.map((g, gpu) => ({
                  gpu,
                  metrics: {},
                  longestIdle: { durationMs: 9_999 },
                  longestInnerIdle: g.inner === null ? null : { durationMs: g.inner },
                  leadingIdleMs: g.leading,
                })),
              },
            ],
          },
        },
      }) as unknown as CountedRun
    const e = evidenceFor(
      [
        run([
          { inner: 100, leading: 1_900 },
          { inner: 300, leading: null },
        ]),
        run([{ inner: null, leading: 500 }]),
        run([{ inner: 700, leading: 2_500 }]),
      ],
      STAGE,
      0.5,
      1_000,
      thresholds,
    )
    expect(e.innerIdleMs).toBe(500) // median of 300 and 700 (the run without a gap has none to give)
    expect(e.leadingIdleMs).toBe(1_900) // median of 1,900, 500 and 2,500
    expect(e.longestIdleMs).toBe(9_999)
  })

  test('steady-state utilization: the mean over GPUs per run, the median over runs; unknown where the monitor lacked it', () => {
    const run = (steady: (number | undefined)[]) =>
      ({
        recordId: 'r',
        group: 'g',
        index: 0,
        measured: {
          gpu: {
            stages: [
              {
                stage: STAGE,
                throttledSamples: 0,
                gpus: steady.map((s, gpu) => ({
                  gpu,
                  metrics: {},
                  longestIdle: null,
                  ...(s === undefined ? {} : { steadyUtilPct: s }),
                })),
              },
            ],
          },
        },
      }) as unknown as CountedRun
    const e = evidenceFor(
      [run([80, 90]), run([60]), run([undefined]), run([95, undefined])],
      STAGE,
      0.5,
      1_000,
      thresholds,
    )
    expect(e.steadyUtilPct).toBe(85) // median of 85, 60 and 95; the run without a reading gives none
    expect(evidenceFor([run([undefined, undefined])], STAGE, 0.5, 1_000, thresholds).steadyUtilPct).toBeNull()
  })

  test('a GPU stage is one of thresholds.perf02.stages', () => {
    expect(evidenceFor([], STAGE, 0, 0, thresholds).gpuStage).toBe(thresholds.perf02.stages.includes(STAGE))
    expect(evidenceFor([], 'Feature Merging', 0, 0, thresholds).gpuStage).toBe(false)
  })
})

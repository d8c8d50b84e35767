import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { nvmlWorkOnsetMs, WORK_GAP_MS, workFigures } from '../../../src/monitor/summary/work-onset.ts'
import { sample } from '../support/records.ts'

const STAGE = 'ESM-2 Feature Extraction'
const window = { stage: STAGE, startMs: 1_000, endMs: 61_000 }

/** One GPU's samples every `stepMs` from the window's start, its utilization by time from that start. */
const series = (utilAt: (ms: number) => number, stepMs = 500) =>
  Array.from({ length: (window.endMs - window.startMs) / stepMs }, (_, i) =>
    sample(0, window.startMs + i * stepMs, { utilPct: utilAt(i * stepMs) }),
  )

// A v2 worker: its model moved to the GPU at 10 s (a blip), its loader's read until 30 s, batches at 70% to 50 s.
const v2Worker = (ms: number) => (ms >= 10_000 && ms < 11_000 ? 40 : ms >= 30_000 && ms < 50_000 ? 70 : 0)

describe("where a GPU's work starts: its first batch, else the first sample from which it stays busy", () => {
  test('a blip long before the work is not its onset; the work runs from its first busy sample to its last', () => {
    expect(nvmlWorkOnsetMs(series(v2Worker))).toBe(window.startMs + 30_000)
    expect(workFigures(series(v2Worker), [window], null)).toEqual({
      workOnsetMs: 30_000,
      workOnsetSource: 'nvml-onset',
      workUtilPct: 70,
    })
  })

  test("a stage that builds its model once per file: its first file's work is the onset, the later builds inside", () => {
    // Files of 12 s at 80%, builds of 6 s idle between them, from 4 s on.
    const v1 = (ms: number) => (ms >= 4_000 && (ms - 4_000) % 18_000 < 12_000 ? 80 : 0)
    const figures = workFigures(series(v1), [window], null)
    expect(figures.workOnsetMs).toBe(4_000)
    expect(figures.workUtilPct!).toBeLessThan(60)
  })

  test('a pause shorter than the gap is part of the work; one longer splits it, and a short first stretch is a blip', () => {
    // 3 s busy, a pause, then busy to the end.
    const pause = (gapMs: number) => (ms: number) => (ms >= 3_000 && ms < 3_000 + gapMs ? 0 : 65)
    expect(nvmlWorkOnsetMs(series(pause(WORK_GAP_MS - 1_000)))).toBe(window.startMs)
    expect(nvmlWorkOnsetMs(series(pause(WORK_GAP_MS + 1_000)))).toBe(window.startMs + 3_000 + WORK_GAP_MS + 1_000)
  })

  test("the log's span where it has one: from the worker's first batch to its end, whatever the samples say", () => {
    const span = { stage: STAGE, gpu: 0, startMs: 29_000, endMs: 51_000 }
    expect(workFigures(series(v2Worker), [window], span)).toEqual({
      workOnsetMs: 29_000,
      workOnsetSource: 'first-batch',
      workUtilPct: (70 * 40) / 44,
    })
    // A span no sample falls in leaves the onset to the samples.
    const empty = { ...span, startMs: 70_000, endMs: 71_000 }
    expect(workFigures(series(v2Worker), [window], empty).workOnsetSource).toBe('nvml-onset')
  })

  test('any series: the onset is a busy sample at or after the first one, the utilization inside 0-100%', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 120 }), (utils) => {
        const samples = utils.map((u, i) => sample(0, window.startMs + i * 500, { utilPct: u }))
        const onset = nvmlWorkOnsetMs(samples)
        const busy = samples.filter((s) => s.utilPct! >= 10)
        if (busy.length === 0) {
          expect(onset).toBeNull()
          return
        }
        expect(busy.map((s) => s.tMs)).toContain(onset)
        const { workUtilPct } = workFigures(samples, [window], null)
        expect(workUtilPct!).toBeGreaterThanOrEqual(0)
        expect(workUtilPct!).toBeLessThanOrEqual(100)
      }),
    )
  })
})

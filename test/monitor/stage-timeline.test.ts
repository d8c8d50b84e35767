import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { StageTimeline } from '../../src/monitor/stage-timeline.ts'

function timeline(changes: [number, string | null][]): StageTimeline {
  const t = new StageTimeline()
  for (const [tMs, stage] of changes) t.add({ tMs, stage })
  return t
}

describe('StageTimeline', () => {
  test('a stage holds from its start up to, not including, the next start', () => {
    const t = timeline([
      [100, 'a'],
      [200, 'b'],
    ])
    expect([0, 99.9, 100, 199.9, 200, 1e9].map((x) => t.at(x))).toEqual([null, null, 'a', 'a', 'b', 'b'])
  })

  test('changes that arrive out of order are sorted by time', () => {
    const t = timeline([
      [200, 'b'],
      [100, 'a'],
    ])
    expect(t.windows(0, 300)).toEqual([
      { stage: null, startMs: 0, endMs: 100 },
      { stage: 'a', startMs: 100, endMs: 200 },
      { stage: 'b', startMs: 200, endMs: 300 },
    ])
  })

  test('forgetting old changes keeps the one still current', () => {
    const t = timeline([
      [100, 'a'],
      [200, 'b'],
    ])
    t.forgetBefore(250)
    expect([t.at(250), t.at(1e9)]).toEqual(['b', 'b'])
  })

  test('property: windows tile [start, end) and each window agrees with at()', () => {
    const change = fc.tuple(fc.integer({ min: -50, max: 1_050 }), fc.constantFrom('a', 'b', 'c', null))
    fc.assert(
      fc.property(fc.array(change, { maxLength: 20 }), fc.integer({ min: 1, max: 1_000 }), (changes, endMs) => {
        const t = timeline(changes)
        const windows = t.windows(0, endMs)
        expect(windows[0]!.startMs).toBe(0)
        expect(windows.at(-1)!.endMs).toBe(endMs)
        windows.forEach((w, i) => {
          expect(w.endMs).toBeGreaterThan(w.startMs)
          if (i > 0) expect(w.startMs).toBe(windows[i - 1]!.endMs)
          expect(t.at(w.startMs)).toBe(w.stage)
          expect(t.at(w.endMs - 0.001)).toBe(w.stage)
        })
      }),
      { numRuns: 300 },
    )
  })
})

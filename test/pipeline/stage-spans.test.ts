import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { SummaryBlock, TargetEvent } from '../../src/pipeline/events.ts'
import { buildStageSpans } from '../../src/pipeline/stage-spans.ts'

function start(index: number, name: string, atMs: number): TargetEvent {
  return { type: 'stage-start', index, name, atMs }
}
function end(index: number, name: string, durationS: number, atMs: number): TargetEvent {
  return { type: 'stage-end', index, name, durationS, skippedReason: null, extras: { n: index }, atMs }
}
function summary(stages: [string, number | null][]): TargetEvent {
  const block: SummaryBlock = {
    totalWallS: 0,
    totalWallHms: '00:00:00',
    stages: stages.map(([name, durationS], i) => ({ index: i + 1, name, durationS, percent: null })),
    bottlenecks: [],
    metrics: {},
    sequencesProcessed: null,
  }
  return { type: 'summary', summary: block, atMs: 0 }
}

describe('buildStageSpans', () => {
  test('pairs starts and ends into spans on both clocks', () => {
    const { spans } = buildStageSpans([start(1, 'A', 10), end(1, 'A', 0.5, 515)])
    expect(spans).toEqual([
      {
        index: 1,
        name: 'A',
        startMs: 10,
        endMs: 515,
        receivedDurationMs: 505,
        logDurationS: 0.5,
        summaryDurationS: null,
        skippedReason: null,
        extras: { n: 1 },
      },
    ])
  })

  test('a stage still running at the end has no end', () => {
    expect(buildStageSpans([start(1, 'A', 0)]).spans[0]).toMatchObject({ endMs: null, receivedDurationMs: null })
  })

  test('agreement within 0.2 s is no mismatch; beyond it is recorded', () => {
    const events = [start(1, 'A', 0), end(1, 'A', 1.0, 1000), start(2, 'B', 1000), end(2, 'B', 2.0, 3000)]
    const { mismatches, spans } = buildStageSpans([
      ...events,
      summary([
        ['A', 1.2],
        ['B', 2.3],
      ]),
    ])
    expect(mismatches).toEqual([{ name: 'B', logDurationS: 2, summaryDurationS: 2.3, diffS: 0.3 }])
    expect(spans.map((s) => s.summaryDurationS)).toEqual([1.2, 2.3])
  })

  test('a summary stage the log never ended is a mismatch with no diff', () => {
    const { mismatches } = buildStageSpans([summary([['Z', 1]])])
    expect(mismatches).toEqual([{ name: 'Z', logDurationS: null, summaryDurationS: 1, diffS: null }])
  })

  test('spans never overlap and their received durations sum to at most the last end', () => {
    const gaps = fc.array(fc.tuple(fc.nat(1000), fc.nat(5000)), { minLength: 1, maxLength: 9 })
    fc.assert(
      fc.property(gaps, (list) => {
        const events: TargetEvent[] = []
        let t = 0
        list.forEach(([gap, length], i) => {
          const startMs = t + gap
          t = startMs + length
          events.push(start(i + 1, `S${i}`, startMs), end(i + 1, `S${i}`, length / 1000, t))
        })
        const { spans } = buildStageSpans(events)
        const sum = spans.reduce((acc, s) => acc + (s.receivedDurationMs ?? 0), 0)
        expect(sum).toBe(list.reduce((acc, [, length]) => acc + length, 0))
        expect(sum).toBeLessThanOrEqual(t)
      }),
    )
  })
})

import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { type Contender, judgeRound, keptOf, roundsFor, screenPlan, sizeOfRound } from '../../src/study/halving.ts'

const fine = (label: string, medianWallMs: number): Contender => ({
  label,
  medianWallMs,
  failure: null,
  outputsEqual: true,
  outputsDetail: 'equal',
})

describe('judgeRound', () => {
  test('keeps the faster half, rounded up, fastest first; the rest leave as slower with both medians in words', () => {
    const out = judgeRound([fine('a', 300), fine('b', 100), fine('c', 200)], 1, 8)
    expect(out.kept).toEqual(['b', 'c'])
    expect(out.dropped).toEqual([
      {
        label: 'a',
        drop: {
          round: 1,
          records: 8,
          why: 'slower',
          detail: 'median 300 ms against 200 ms for the slowest of the 2 kept',
        },
      },
    ])
  })

  test('a failed setting, one with other outputs and one with nothing to compare leave first, whatever their speed', () => {
    const out = judgeRound(
      [
        { ...fine('crash', 1), failure: 'crash run 1 ended as failed: exit 1', medianWallMs: null },
        { ...fine('seed', 1), outputsEqual: false, outputsDetail: 'scores not close' },
        { ...fine('blind', 1), outputsEqual: null, outputsDetail: 'no predictions file' },
        fine('slow', 500),
      ],
      2,
      40,
    )
    expect(out.kept).toEqual(['slow'])
    expect(out.dropped.map((d) => [d.label, d.drop.why, d.drop.detail])).toEqual([
      ['crash', 'failed', 'crash run 1 ended as failed: exit 1'],
      ['seed', 'outputs-differ', 'scores not close'],
      ['blind', 'no-outputs', 'no predictions file'],
    ])
  })

  test('ties keep the grid order, so a continuation makes the same choice', () => {
    expect(judgeRound([fine('x', 5), fine('y', 5), fine('z', 5)], 1, 8).kept).toEqual(['x', 'y'])
  })

  test('property: every contender is kept or dropped once; the kept are never slower than a slower-dropped one', () => {
    const contender = fc.record({
      medianWallMs: fc.option(fc.double({ min: 1, max: 1e6, noNaN: true }), { nil: null }),
      failed: fc.boolean(),
      outputsEqual: fc.constantFrom(true, true, false, null),
    })
    fc.assert(
      fc.property(fc.array(contender, { maxLength: 12 }), (cs) => {
        const contenders = cs.map((c, i) => ({
          label: `s${i}`,
          medianWallMs: c.medianWallMs,
          failure: c.failed ? 'failed' : null,
          outputsEqual: c.outputsEqual,
          outputsDetail: '',
        }))
        const out = judgeRound(contenders, 1, 8)
        const labels = [...out.kept, ...out.dropped.map((d) => d.label)].sort()
        expect(labels).toEqual(contenders.map((c) => c.label).sort())
        const standing = contenders.filter((c) => !c.failure && c.medianWallMs !== null && c.outputsEqual === true)
        expect(out.kept).toHaveLength(keptOf(standing.length))
        const wall = (label: string) => contenders.find((c) => c.label === label)!.medianWallMs!
        const slowestKept = Math.max(...out.kept.map(wall))
        for (const d of out.dropped.filter((x) => x.drop.why === 'slower'))
          expect(wall(d.label)).toBeGreaterThanOrEqual(slowestKept)
      }),
    )
  })
})

describe('rounds and sizes', () => {
  test('property: halving from n contenders reaches one within roundsFor(n) rounds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), (n) => {
        let left = n
        let rounds = 1
        while (left > 1) {
          left = keptOf(left)
          rounds++
        }
        expect(rounds).toBeLessThanOrEqual(roundsFor(n))
      }),
    )
  })

  test('rounds run at the ladder in turn, then at its largest; a bad ladder or round is named', () => {
    expect([1, 2, 3, 4].map((r) => sizeOfRound([8, 40], r))).toEqual([8, 40, 40, 40])
    expect(() => sizeOfRound([], 1)).toThrow('at least one screening size')
    expect(() => sizeOfRound([8], 0)).toThrow('rounds count from 1')
  })
})

// Issue 47: a 10 x 10 x 10 grid was accepted and screened for about an hour without a line. The plan said before the
// first run is the most the screen can take.
describe('screenPlan', () => {
  test('rounds of the default and the settings still in, a warm-up first; the study known answer: 15 + 8 + 6', () => {
    expect(screenPlan(6, 2)).toEqual({ rounds: 3, runs: 29, perRound: [15, 8, 6] })
    expect(screenPlan(1, 2)).toEqual({ rounds: 1, runs: 5, perRound: [5] })
    expect(screenPlan(1000, 2).perRound[0]).toBe(2003)
  })

  test('property: as many rounds as the screen runs at most, each of fewer settings, the total their sum', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 5 }), (n, runs) => {
        const plan = screenPlan(n, runs)
        expect(plan.rounds).toBeLessThanOrEqual(roundsFor(n))
        expect(plan.runs).toBe(plan.perRound.reduce((a, b) => a + b, 0))
        expect(plan.perRound[0]).toBe((n + 1) * runs + 1)
        for (let i = 1; i < plan.perRound.length; i++) expect(plan.perRound[i]).toBeLessThan(plan.perRound[i - 1]!)
      }),
    )
  })
})

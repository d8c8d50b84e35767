// Issue 44: `FINAL: 6 M sequences take 5.8 h [5.5, 6.1] on 1 GPU (undecided against 10 h)` read as a contradiction.
// A stopped answer's headline says how it stopped and where that left its verdicts; the states stay what they were.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { headlineOf, statusTextOf, verdictStatesText } from '../../src/capacity/answer-state.ts'

const stopped = { final: true, keptRuns: 12, plannedRuns: 12 }
const check = fc.constantFrom('inside' as const, 'missed' as const, 'unchecked' as const, undefined)
const counts = fc.nat(30).chain((judged) => fc.tuple(fc.integer({ min: 0, max: judged }), fc.constant(judged)))

describe('headlineOf', () => {
  test('a stopped answer with an undecided verdict: FINAL says the design finished, and how many are open', () => {
    expect(headlineOf({ ...stopped, check: 'inside' }, true, 1, 4)).toBe(
      'FINAL (design finished: 1 of 4 verdicts undecided)',
    )
    expect(headlineOf({ ...stopped, check: 'inside' }, true, 0, 4)).toBe(
      'FINAL (design finished: all 4 verdicts decided)',
    )
    expect(headlineOf(stopped, false, 2, 9)).toBe('FINAL (judged once, no design: 2 of 9 verdicts undecided)')
  })

  test("the held-out check's own reason first, in the same brackets", () => {
    expect(headlineOf({ ...stopped, check: 'missed' }, true, 4, 4)).toBe(
      'UNDECIDED (held-out check missed; design finished: 4 of 4 verdicts undecided)',
    )
    expect(headlineOf({ ...stopped, check: 'unchecked' }, false, 0, 1)).toBe(
      'UNCHECKED (no held-out run; judged once, no design: its 1 verdict decided)',
    )
  })

  test('while it measures, the status alone: the runs so far, nothing stopped', () => {
    const running = { final: false, keptRuns: 6, plannedRuns: 6 }
    expect(headlineOf(running, true, 3, 4)).toBe('PROVISIONAL (6 of 6 runs)')
    expect(headlineOf(running, true, 3, 4)).toBe(statusTextOf(running))
  })

  test('property: it starts with the state statusTextOf gives; a stopped one says how it stopped; `undecided` only where one is', () => {
    fc.assert(
      fc.property(fc.boolean(), check, fc.boolean(), counts, (final, c, design, [undecided, judged]) => {
        const status = { final, keptRuns: 3, plannedRuns: 5, check: c }
        const headline = headlineOf(status, design, undecided, judged)
        const word = statusTextOf(status).split(' ')[0]!
        expect(headline.startsWith(word)).toBe(true)
        if (!final) {
          expect(headline).toBe(statusTextOf(status))
          return
        }
        expect(headline).toMatch(design ? /design finished: / : /judged once, no design: /)
        expect(/undecided/.test(headline)).toBe(undecided > 0)
        // One pair of brackets: a reader (and the reports' bold status) takes the headline whole.
        expect(headline.match(/\(/g)).toHaveLength(1)
        expect(headline.endsWith(')')).toBe(true)
      }),
    )
  })
})

describe('verdictStatesText', () => {
  test('property: the counts read back from the words', () => {
    fc.assert(
      fc.property(counts, ([undecided, judged]) => {
        const text = verdictStatesText(undecided, judged)
        if (judged === 0) expect(text).toBe('no verdict judged')
        else if (undecided === 0)
          expect(text).toMatch(
            judged === 1 ? /^its 1 verdict decided$/ : new RegExp(`^all ${judged} verdicts decided$`),
          )
        else {
          const m = /^(\d+) of (\d+) verdicts? undecided$/.exec(text)
          expect(m && [Number(m[1]), Number(m[2])]).toEqual([undecided, judged])
        }
      }),
    )
  })
})

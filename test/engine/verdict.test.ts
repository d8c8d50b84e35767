import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { judgeAtLeast, judgeAtMost } from '../../src/engine/verdict.ts'

const interval = fc.tuple(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: 0, max: 1e6, noNaN: true }))

describe('judgeAtLeast / judgeAtMost', () => {
  test('pass when the whole CI clears the limit, fail when it misses it entirely, inconclusive otherwise', () => {
    fc.assert(
      fc.property(interval, fc.double({ min: -1e6, max: 1e6, noNaN: true }), ([low, width], limit) => {
        const ci = { low, high: low + width }
        const expected = ci.low >= limit ? 'pass' : ci.high < limit ? 'fail' : 'inconclusive'
        expect(judgeAtLeast(low, ci, limit)).toBe(expected)
        // Mirror: "at most -limit" of the negated interval is the same question.
        expect(judgeAtMost(-low, { low: -ci.high, high: -ci.low }, -limit)).toBe(expected)
      }),
    )
  })

  test('without a CI the point decides', () => {
    expect(judgeAtLeast(80, null, 80)).toBe('pass')
    expect(judgeAtLeast(79.9, null, 80)).toBe('fail')
  })
})

import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { MIN_JUDGED_STAGE_MS, tooShortToJudge } from '../../src/config/judging.ts'

describe('stages too short to judge', () => {
  test('under a second: not judged, saying how long and why; a second or more: judged', () => {
    expect(tooShortToJudge(1)).toBe(
      "not judged: 1 ms, under 1000 ms (a stage that short times its process start and the log's clock, not its work)",
    )
    expect(tooShortToJudge(MIN_JUDGED_STAGE_MS)).toBeNull()
  })

  test('property: the line falls at MIN_JUDGED_STAGE_MS, whatever the duration', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e7, noNaN: true }), (ms) => {
        expect(tooShortToJudge(ms) === null).toBe(ms >= MIN_JUDGED_STAGE_MS)
      }),
    )
  })
})

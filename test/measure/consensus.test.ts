// Issue 56: the settings study's outputs rule, as VirNucPro judges its own v2.0 path: consensus labels agreeing at
// >= 99% over the same IDs, the score differences reported beside them.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { type ConsensusRow, compareConsensus, judgeConsensus, SCORE_DIFF_STEP } from '../../src/measure/consensus.ts'

const score = fc.double({ min: 0, max: 1, noNaN: true })
const row = (id: string): fc.Arbitrary<ConsensusRow> =>
  fc.record({ id: fc.constant(id), isVirus: fc.boolean(), maxScores: fc.tuple(score, score) })
/** Rows with distinct IDs. */
const rows = fc
  .uniqueArray(fc.stringMatching(/^seq[0-9]{1,4}_chunk_[1-3]$/), { minLength: 1, maxLength: 40 })
  .chain((ids) => fc.tuple(...ids.map(row)))

const flip = (r: ConsensusRow): ConsensusRow => ({ ...r, isVirus: !r.isVirus })

describe('compareConsensus', () => {
  test('the same rows agree fully, with no score moved', () => {
    fc.assert(
      fc.property(rows, (rs) => {
        const c = compareConsensus(rs, [...rs].reverse())
        expect(c).toMatchObject({ common: rs.length, sameIds: true, agreeing: rs.length, labelAgreement: 1 })
        expect(c.scores).toEqual({
          count: 2 * rs.length,
          maxAbs: 0,
          meanAbs: 0,
          over: 0,
          overShare: 0,
          step: SCORE_DIFF_STEP,
        })
      }),
    )
  })

  test('k labels flipped of n: agreement (n - k) / n, whatever the scores did', () => {
    fc.assert(
      fc.property(rows, fc.nat(), fc.double({ min: -0.5, max: 0.5, noNaN: true }), (rs, k0, shift) => {
        const k = k0 % (rs.length + 1)
        const cand = rs.map((r, i) => {
          const moved = { ...r, maxScores: [r.maxScores[0] + shift, r.maxScores[1] - shift] as const }
          return i < k ? flip(moved) : moved
        })
        const c = compareConsensus(rs, cand)
        expect(c.agreeing).toBe(rs.length - k)
        expect(c.labelAgreement).toBeCloseTo((rs.length - k) / rs.length, 12)
        expect(c.scores.maxAbs).toBeCloseTo(Math.abs(shift), 9)
      }),
    )
  })

  test('symmetric: swapping the sides keeps the agreement and the differences, and swaps missing with extra', () => {
    fc.assert(
      fc.property(rows, rows, (a, b) => {
        const ab = compareConsensus(a, b)
        const ba = compareConsensus(b, a)
        expect([ba.common, ba.agreeing, ba.labelAgreement]).toEqual([ab.common, ab.agreeing, ab.labelAgreement])
        expect([ba.missing, ba.extra]).toEqual([ab.extra, ab.missing])
        expect(ba.scores.maxAbs).toBe(ab.scores.maxAbs)
        expect(ba.scores.over).toBe(ab.scores.over)
        expect(ba.scores.meanAbs).toBeCloseTo(ab.scores.meanAbs, 12)
      }),
    )
  })

  test('the score figures hold together: 0 <= mean <= max, the share over the step counts the scores past it', () => {
    fc.assert(
      fc.property(rows, fc.array(score, { minLength: 80, maxLength: 80 }), (rs, others) => {
        const cand = rs.map((r, i) => ({ ...r, maxScores: [others[2 * i]!, others[2 * i + 1]!] as const }))
        const { scores: s } = compareConsensus(rs, cand)
        const diffs = rs.flatMap((r, i) => [0, 1].map((j) => Math.abs(cand[i]!.maxScores[j]! - r.maxScores[j]!)))
        expect(s.count).toBe(diffs.length)
        expect(s.maxAbs).toBe(Math.max(...diffs))
        expect(s.meanAbs).toBeGreaterThanOrEqual(0)
        expect(s.meanAbs).toBeLessThanOrEqual(s.maxAbs + 1e-15)
        expect(s.over).toBe(diffs.filter((d) => d > SCORE_DIFF_STEP).length)
        expect(s.overShare).toBeCloseTo(s.over / s.count, 12)
        expect(s.over > 0).toBe(s.maxAbs > SCORE_DIFF_STEP)
      }),
    )
  })

  test('different ID sets are counted: missing, extra, given twice; only the common IDs are compared', () => {
    const r = (id: string, isVirus = true): ConsensusRow => ({ id, isVirus, maxScores: [0.2, 0.8] })
    const c = compareConsensus([r('a'), r('b'), r('c')], [r('b'), r('c', false), r('d'), r('d')])
    expect(c).toMatchObject({ common: 2, missing: 1, extra: 1, duplicates: 1, sameIds: false, agreeing: 1 })
    expect(c.labelAgreement).toBe(0.5)
    expect(compareConsensus([r('a')], [r('a'), r('a')]).sameIds).toBe(false)
    expect(compareConsensus([], []).labelAgreement).toBeNull()
  })
})

describe('judgeConsensus', () => {
  const r = (i: number, isVirus = true): ConsensusRow => ({ id: `s${i}`, isVirus, maxScores: [0.3, 0.7] })
  const n = (count: number, flipped: number) => {
    const ref = Array.from({ length: count }, (_, i) => r(i))
    return compareConsensus(
      ref,
      ref.map((x, i) => (i < flipped ? flip(x) : x)),
    )
  }

  test('at or above the threshold the same; below it differs, by how much', () => {
    expect(judgeConsensus(n(100, 1), 0.99)).toEqual({ state: 'same' })
    const below = judgeConsensus(n(1000, 28), 0.99)
    expect(below).toMatchObject({ state: 'differs', why: 'labels' })
    expect((below as { shortfall: number }).shortfall).toBeCloseTo(0.018, 12)
    // VirNucPro's own run: 99.87% passes its 99% bar.
    expect(judgeConsensus(n(10_000, 13), 0.99)).toEqual({ state: 'same' })
  })

  test('property: same exactly when the IDs are the same and the agreement reaches the threshold', () => {
    fc.assert(
      fc.property(rows, rows, fc.double({ min: 0, max: 1, noNaN: true }), (a, b, min) => {
        const c = compareConsensus(a, b)
        const j = judgeConsensus(c, min)
        expect(j.state === 'same').toBe(c.sameIds && (c.labelAgreement ?? 0) >= min)
      }),
    )
  })

  test('different IDs differ even where every common label agrees; nothing on either side is no verdict', () => {
    expect(judgeConsensus(compareConsensus([r(1), r(2)], [r(1)]), 0.5)).toEqual({
      state: 'differs',
      why: 'ids',
      shortfall: null,
    })
    expect(judgeConsensus(compareConsensus([], []), 0.99)).toEqual({ state: 'empty' })
  })
})

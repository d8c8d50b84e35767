import { describe, expect, test } from 'vitest'
import { comparePredictions, type PredictionRow } from '../../src/measure/equivalence.ts'

const row = (id: string, label: 'virus' | 'others', a: number, b: number): PredictionRow => ({
  id,
  label,
  scores: [a, b],
})
const reference = [
  row('s1_chunk_1F1', 'virus', 0.1, 0.9),
  row('s1_chunk_1R1', 'others', 0.8, 0.2),
  row('s2', 'virus', 0.3, 0.7),
]

describe('comparePredictions', () => {
  test('identical predictions pass with zero differences', () => {
    const r = comparePredictions(reference, [...reference].reverse())
    expect(r).toMatchObject({ verdict: 'pass', sameIds: true, labelAgreement: 1, scoresAllClose: true, maxAbsDiff: 0 })
  })

  test('scores within rtol/atol 1e-3 pass; beyond fail and are listed', () => {
    const near = reference.map((r) => row(r.id, r.label, r.scores[0] + 5e-4, r.scores[1] - 5e-4))
    expect(comparePredictions(reference, near).verdict).toBe('pass')
    const far = [row('s1_chunk_1F1', 'virus', 0.1, 0.91), ...reference.slice(1)]
    const r = comparePredictions(reference, far)
    expect(r).toMatchObject({ verdict: 'fail', scoresAllClose: false })
    expect(r.maxAbsDiff).toBeCloseTo(0.01, 12)
    expect(r.meanAbsDiff).toBeCloseTo(0.01 / 6, 12)
    expect(r.disagreements.listed.map((d) => [d.id, d.kind])).toEqual([['s1_chunk_1F1', 'score']])
  })

  test('label flips lower the agreement rate', () => {
    const flipped = [row('s1_chunk_1F1', 'others', 0.1, 0.9), ...reference.slice(1)]
    const r = comparePredictions(reference, flipped)
    expect(r.labelAgreement).toBeCloseTo(2 / 3, 12)
    expect(r.disagreements.listed[0]!.kind).toBe('label')
  })

  test('missing, extra and duplicate IDs are counted and fail', () => {
    const r = comparePredictions(reference, [reference[0]!, reference[0]!, row('new', 'virus', 0, 1)])
    expect(r).toMatchObject({ verdict: 'fail', sameIds: false })
    expect(r.missingIds).toEqual({ count: 2, listed: ['s1_chunk_1R1', 's2'] })
    expect(r.extraIds).toEqual({ count: 1, listed: ['new'] })
    expect(r.duplicateIds.count).toBe(1)
  })

  test('NaN scores are never close', () => {
    const r = comparePredictions(reference, [row('s1_chunk_1F1', 'virus', Number.NaN, 0.9), ...reference.slice(1)])
    expect(r.scoresAllClose).toBe(false)
    expect(r.maxAbsDiff).toBe(Number.POSITIVE_INFINITY)
  })

  test('the disagreement list is capped, the count is not', () => {
    const many = Array.from({ length: 100 }, (_, i) => row(`id${i}`, 'virus', 0, 1))
    const flipped = many.map((r) => ({ ...r, label: 'others' as const }))
    const r = comparePredictions(many, flipped, { maxListed: 10 })
    expect(r.disagreements.count).toBe(100)
    expect(r.disagreements.listed).toHaveLength(10)
  })
})

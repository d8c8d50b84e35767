import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  codonGcFraction,
  codonSamplingTable,
  HUMAN_CODON_USAGE_PER_THOUSAND,
  tiltedCodonWeights,
} from '../../src/input/codon-usage.ts'
import { CODONS, STOP_CODONS } from '../../src/input/genetic-code.ts'

describe('codon usage', () => {
  test('the table has 64 entries and sums to ~1000 per thousand', () => {
    expect(HUMAN_CODON_USAGE_PER_THOUSAND).toHaveLength(64)
    expect(Math.abs(HUMAN_CODON_USAGE_PER_THOUSAND.reduce((a, b) => a + b, 0) - 1000)).toBeLessThan(5)
  })

  test('tilted weights hit any GC target in [0.2, 0.8] and never weight a stop', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.2, max: 0.8, noNaN: true }), (gc) => {
        const weights = tiltedCodonWeights(gc)
        expect(codonGcFraction(weights)).toBeCloseTo(gc, 6)
        for (const stop of STOP_CODONS) expect(weights[CODONS.indexOf(stop)]).toBe(0)
      }),
    )
  })

  test('the sampling table never yields a stop codon', () => {
    const stops = new Set(STOP_CODONS.map((s) => CODONS.indexOf(s)))
    expect(codonSamplingTable(0.5).some((c) => stops.has(c))).toBe(false)
  })

  test('rejects a GC target outside [0.05, 0.95]', () => {
    expect(() => tiltedCodonWeights(0.99)).toThrow(/got 0\.99/)
  })
})

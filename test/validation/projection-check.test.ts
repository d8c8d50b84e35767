import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { projectObservation } from '../../src/suites/e2e/e2e-projection.ts'
import {
  checkProjection,
  describePartErrors,
  type PartError,
  projectionAccuracy,
} from '../../src/validation/projection-check.ts'
import { loadH200Run } from '../suites/support/h200-runs.ts'

describe('projectionAccuracy', () => {
  test('within when the relative error is at most 5%', () => {
    expect(projectionAccuracy(104, 100)).toMatchObject({ within: true })
    expect(projectionAccuracy(94, 100)).toMatchObject({ within: false })
  })

  test('the relative error is (projected - measured) / measured', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e9, noNaN: true }),
        fc.double({ min: 1, max: 1e9, noNaN: true }),
        (p, m) => {
          expect(projectionAccuracy(p, m).relativeError).toBeCloseTo((p - m) / m, 9)
        },
      ),
    )
  })

  test('refuses a non-positive measured time naming it', () => {
    expect(() => projectionAccuracy(1, 0)).toThrow(/measuredMs must be > 0, got 0/)
  })
})

describe('checkProjection', () => {
  test('the real H200 500-sequence subset predicts the 5,000-sequence run within 5%', () => {
    const check = checkProjection(loadH200Run('500'), loadH200Run('5000'), 'validation')
    expect(check.state).toBe('checked')
    if (check.state === 'checked') expect(check.accuracy.within, `${check.accuracy.relativeError}`).toBe(true)
  })

  test('is the e2e projection: the same estimate as projectObservation gives', () => {
    const subset = loadH200Run('500')
    const full = loadH200Run('5000')
    const check = checkProjection(subset, full, 'validation')
    const suite = projectObservation(subset, [{ sequences: 5_000 }], 'validation')
    expect(check.state === 'checked' && check.accuracy.projectedMs).toBe(
      suite.state === 'projected' && suite.projection.projections[0]!.projectedMs.estimate,
    )
  })

  test('its parts account for the whole error: projected minus measured, part by part, sums to it', () => {
    for (const [subset, full] of [
      ['500', '5000'],
      ['2000-run-1', '2000-run-2'],
    ] as const) {
      const check = checkProjection(loadH200Run(subset), loadH200Run(full), 'validation')
      expect(check.state).toBe('checked')
      if (check.state !== 'checked') continue
      const sum = check.parts.reduce((a, p) => a + p.projectedMs - p.measuredMs, 0)
      expect(sum).toBeCloseTo(check.accuracy.projectedMs - check.accuracy.measuredMs, 6)
      expect(check.parts.map((p) => p.name)).toContain('ESM-2 Feature Extraction')
      expect(check.parts.at(-1)!.name).toBe('outside stages')
    }
  })
})

describe('describePartErrors', () => {
  test('names the largest differences first, signed, in seconds', () => {
    const parts: PartError[] = [
      { name: 'a', projectedMs: 1_000, measuredMs: 1_100 },
      { name: 'b', projectedMs: 5_000, measuredMs: 4_000 },
      { name: 'c', projectedMs: 10, measuredMs: 10 },
    ]
    expect(describePartErrors(parts, 2)).toBe('b +1.00 s, a -0.10 s')
  })
})

import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { projectObservation } from '../../src/suites/e2e-projection.ts'
import { checkProjection, projectionAccuracy } from '../../src/validation/projection-check.ts'
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
})

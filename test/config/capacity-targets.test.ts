import { describe, expect, test } from 'vitest'
import { CAPACITY_CI_TARGET } from '../../src/capacity/topup.ts'
import { capacityTargets, REFERENCE_TARGETS } from '../../src/config/capacity-targets.ts'

describe('capacity targets per pipeline', () => {
  test('the reference pipeline +-3% / +-5% in 15 GPU-minutes; VirNucPro +-5% / +-8% in 60; any other the reference', () => {
    expect([1, 2, 4].map(capacityTargets('reference').ciHalfWidth)).toEqual([0.03, 0.05, 0.05])
    expect([1, 2, 4].map(capacityTargets('virnucpro').ciHalfWidth)).toEqual([0.05, 0.08, 0.08])
    expect(capacityTargets('virnucpro').budgetGpuMinutes).toBe(60)
    expect(capacityTargets(undefined)).toBe(REFERENCE_TARGETS)
    expect(CAPACITY_CI_TARGET(1)).toBe(REFERENCE_TARGETS.ciHalfWidth(1))
  })
})

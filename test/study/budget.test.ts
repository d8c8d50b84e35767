import fc from 'fast-check'
import { expect, test } from 'vitest'
import { SettingError } from '../../src/platform/setting-error.ts'
import { studyDesignBudget } from '../../src/study/budget.ts'

// Issue 47: VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN=1 gave each of the study's designs 0 GPU-minutes without a word.
test('a study budget that leaves a design nothing is refused in one line naming the variable and the fix', () => {
  expect(() => studyDesignBudget(1)).toThrow(SettingError)
  expect(() => studyDesignBudget(1)).toThrow(/VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN.*0 GPU-minutes.*give 2 or more/)
  expect(studyDesignBudget(2)).toBe(0.5)
  expect(studyDesignBudget(61)).toBe(30)
})

test('property: every budget of 2 or more gives each design half of it less half a minute; 1 is refused', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 100_000 }), (total) => {
      if (total >= 2) expect(studyDesignBudget(total)).toBe((total - 1) / 2)
      else expect(() => studyDesignBudget(total)).toThrow(SettingError)
    }),
    { seed: 47, numRuns: 200 },
  )
})

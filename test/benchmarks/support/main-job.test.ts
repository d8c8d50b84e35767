// Issue 44: the main job at its defaults ran about 48 minutes on one H200, 32 of them the validation known answers and
// 4 the settings study. They run when asked; skipped, they say how (benchmarks/support/main-job.ts).
import { describe, expect, test } from 'vitest'
import {
  isValidationFile,
  STUDY_NOT_ASKED,
  studyAsked,
  VALIDATION_NOT_ASKED,
  validationAsked,
} from '../../../benchmarks/support/main-job.ts'
import { suiteSettings } from '../../../src/engine/settings.ts'

describe('what the main job leaves out unless asked', () => {
  test('the validation known answers: off by default, on with VIRNUCPRO_BENCH_VALIDATION; a bad word refused', () => {
    expect(validationAsked({})).toBe(false)
    expect(validationAsked({ VIRNUCPRO_BENCH_VALIDATION: '1' })).toBe(true)
    expect(validationAsked({ VIRNUCPRO_BENCH_VALIDATION: 'off' })).toBe(false)
    expect(() => validationAsked({ VIRNUCPRO_BENCH_VALIDATION: 'maybe' })).toThrow(/VIRNUCPRO_BENCH_VALIDATION='maybe'/)
    expect(VALIDATION_NOT_ASKED).toContain('VIRNUCPRO_BENCH_VALIDATION=1')
  })

  test('only the files under benchmarks/validation are the known answers', () => {
    expect(isValidationFile('/repo/benchmarks/validation/capacity/capacity.gpu.test.ts')).toBe(true)
    expect(isValidationFile('C:\\repo\\benchmarks\\validation\\history\\history.gpu.test.ts')).toBe(true)
    for (const f of ['scaling', 'stage-throughput', 'e2e', 'memory', 'study'])
      expect(isValidationFile(`/repo/benchmarks/${f}.gpu.test.ts`)).toBe(false)
  })

  test('the settings study: asked by a grid or by VIRNUCPRO_BENCH_STUDY, never by default', () => {
    expect(studyAsked({})).toBe(false)
    expect(studyAsked({ VIRNUCPRO_BENCH_SWEEP: '  ' })).toBe(false)
    expect(studyAsked({ VIRNUCPRO_BENCH_SWEEP: '{"--esm-batch-size":[8192]}' })).toBe(true)
    expect(studyAsked({ VIRNUCPRO_BENCH_STUDY: 'yes' })).toBe(true)
    expect(STUDY_NOT_ASKED).toMatch(/VIRNUCPRO_BENCH_SWEEP.*VIRNUCPRO_BENCH_STUDY=1/)
  })

  test("e2e's optimization matrix and large-sample run are off by default", () => {
    expect(suiteSettings({}).matrix).toBe(false)
    expect(suiteSettings({}).largeSequences).toBe(0)
    expect(suiteSettings({ VIRNUCPRO_BENCH_LARGE_SEQUENCES: '10000' }).largeSequences).toBe(10_000)
  })
})

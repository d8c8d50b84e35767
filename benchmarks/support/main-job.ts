import { readSetting } from '../../src/config/variables.ts'

/**
 * What the main job (`npx vitest run --project gpu` at its defaults) leaves out, so that it ends within a 10-minute job
 * limit on one GPU (issue 44: it took about 48 minutes of runs on one H200 and was cut with little said). Each part
 * left out runs when asked, and its tests say how when skipped:
 * - the validation known answers (benchmarks/validation: planted faults, sizes run directly, nights of a stepped
 *   target) prove the suite itself, about 32 of those minutes;
 * - the settings study (benchmarks/study.gpu.test.ts) screens a grid of the target's options and gives two more
 *   capacity answers, about 4 minutes at least and up to its budget.
 */
export const VALIDATION_NOT_ASKED =
  'validation known answers: not part of the main job (about 30 minutes on one H200); VIRNUCPRO_BENCH_VALIDATION=1 runs them'

export const STUDY_NOT_ASKED =
  "settings study: not part of the main job; VIRNUCPRO_BENCH_SWEEP (a grid, as JSON) or VIRNUCPRO_BENCH_STUDY=1 (the target's default grid) runs it"

/**
 * Whether VIRNUCPRO_BENCH_VALIDATION asks for the validation files (default no); their `beforeAll` hooks check it, as
 * gpu-setup.ts skips their tests, so that no GPU work starts for a file that will skip.
 */
export function validationAsked(env: NodeJS.ProcessEnv = process.env): boolean {
  return readSetting(env, 'VIRNUCPRO_BENCH_VALIDATION') ?? false
}

/** Whether a test file (its path) is one of the validation known answers. */
export function isValidationFile(path: string): boolean {
  return path.replaceAll('\\', '/').includes('/benchmarks/validation/')
}

/** Whether the settings study is asked for: a grid given (VIRNUCPRO_BENCH_SWEEP), or VIRNUCPRO_BENCH_STUDY. */
export function studyAsked(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.VIRNUCPRO_BENCH_SWEEP?.trim()) || (readSetting(env, 'VIRNUCPRO_BENCH_STUDY') ?? false)
}

/**
 * The GPU-minutes each capacity design of a settings study gets: the study gives the default and its best setting a
 * capacity answer each, so each gets half of VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN, less the minute the suites keep
 * for what the runs' wall times do not hold. Issue 47: a budget of 1 gave each design 0 GPU-minutes without a word.
 */
import { SettingError, variableInput } from '../platform/setting-error.ts'

/** Capacity answers a study makes: the default's and its best setting's. */
export const STUDY_ANSWERS = 2

/**
 * Each design's GPU-minutes from the study's whole budget (a fraction of a minute plans runs of seconds, as on a CPU).
 * @throws SettingError naming VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN where a design would get none.
 */
export function studyDesignBudget(totalGpuMinutes: number): number {
  const each = (totalGpuMinutes - 1) / STUDY_ANSWERS
  if (each > 0) return each
  throw new SettingError(
    variableInput('VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN', String(totalGpuMinutes)),
    `a settings study gives each of its ${STUDY_ANSWERS} capacity answers 0 GPU-minutes of it (one minute is kept for what the runs' wall times do not hold)`,
    'give 2 or more',
  )
}

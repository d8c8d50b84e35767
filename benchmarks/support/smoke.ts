/**
 * The smoke pass CI runs (`VIRNUCPRO_BENCH_SMOKE=1`, test/benchmarks/bench-smoke.test.ts): every bench executed end to
 * end once, on reduced sizes and few pairs, so that a moved file or a renamed export fails CI and not a user. Its
 * figures are printed, never judged: a bench judges a regression only against this machine's saved baseline or a
 * revision run beside it, at its full sizes, and a smoke pass neither reads nor writes a baseline (judgement.ts).
 */
export const SMOKE_ENV = 'VIRNUCPRO_BENCH_SMOKE'

export function isSmokePass(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[SMOKE_ENV] === '1'
}

/** `full` in a real bench run, `smoke` in the smoke pass: a workload size, a pair count, a window. */
export function benchSize<T>(full: T, smoke: T, env: NodeJS.ProcessEnv = process.env): T {
  return isSmokePass(env) ? smoke : full
}

/** The line a smoke pass gives instead of a verdict. */
export const SMOKE_MESSAGE = `smoke pass (${SMOKE_ENV}=1): reduced sizes, not judged, no baseline read or written`

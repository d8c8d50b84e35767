/**
 * `npm run test:long` (VIRNUCPRO_TEST_LONG=1; .github/workflows/long.yml runs it nightly and on demand): the long random
 * campaigns (many kills, many seeds) and the studies at the sizes the docs quote. CI keeps one example of each, sized
 * to hold every file within 3 minutes on 2 cores (issue 45). Not a VIRNUCPRO_BENCH_* setting: the nested campaigns
 * these tests start refuse settings they do not read.
 */
export const LONG_ENV = 'VIRNUCPRO_TEST_LONG'

export function longRuns(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[LONG_ENV] === '1'
}

/** `ci` in CI and `npm test`, `long` under `npm run test:long`: a seed count, a number of random cases. */
export function ciOrLong<T>(ci: T, long: T, env: NodeJS.ProcessEnv = process.env): T {
  return longRuns(env) ? long : ci
}

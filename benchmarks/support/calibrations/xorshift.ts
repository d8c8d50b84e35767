/**
 * xorshift32 (Marsaglia 2003), one step: the calibrations' own random numbers, so that no calibration runs the suite's
 * PRNGs (src/measure/rng.ts, src/input/random.ts), which are code under test. The state is a signed 32-bit integer
 * kept in the caller's local variable (a closure's unsigned state costs a heap number per step in V8, which made a
 * calibration 5x slower here); `>>> 0` reads it as unsigned.
 */
export const XORSHIFT_SEED = 2_463_534_242 | 0

export function xorshift32(state: number): number {
  let x = state
  x ^= x << 13
  x ^= x >>> 17
  x ^= x << 5
  return x | 0
}

/** A uniform draw in [0, 1) from a state. */
export function unitInterval(state: number): number {
  return (state >>> 0) / 2 ** 32
}

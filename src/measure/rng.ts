/**
 * The one place in src/measure that builds a seeded random source. Every resampling function takes a `RandomSource`
 * parameter so that callers (and tests) decide the stream; this default exists so that a call without one is still
 * reproducible. It draws from the suite's single PRNG module (src/input/random.ts).
 */
import { createFastRandom } from '../input/random.ts'

/** A source of uniform numbers in [0, 1). Must be deterministic for a given seed where results must be reproducible. */
export type RandomSource = () => number

/** Seed used when a caller asks for no particular stream: results are still reproducible run to run. */
export const DEFAULT_SEED = 'virnucpro-bench/measure'

/**
 * Builds a seeded random source: the suite's fast generator (sfc32 seeded from seedrandom) rather than seedrandom's
 * default ARC4, which is several times slower and would push a 10,000-resample bootstrap past its 20 ms budget.
 */
export function createRandomSource(seed: string | number = DEFAULT_SEED): RandomSource {
  const generator = createFastRandom(seed)
  return () => generator.next()
}

/** A uniform integer in [0, n). `n` must be a positive integer (not checked: hot path). */
export function randomIndex(random: RandomSource, n: number): number {
  return Math.floor(random() * n)
}

/** Seeded simulated samples for the statistical tests (normal by Box-Muller: no extra dependency). */
import { createRandomSource, type RandomSource } from '../../../src/measure/rng.ts'

export function standardNormal(random: RandomSource): number {
  let u = 0
  while (u === 0) u = random()
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random())
}

/** n run times with the given mean and coefficient of variation (normal noise). */
export function simulateRuns(random: RandomSource, n: number, meanMs: number, cv: number): number[] {
  return Array.from({ length: n }, () => meanMs * (1 + cv * standardNormal(random)))
}

export function seeded(seed: string): RandomSource {
  return createRandomSource(seed)
}

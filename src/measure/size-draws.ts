/**
 * The random draws the size model's CIs are made of: standard normals and Student-t scales with any (not only whole)
 * degrees of freedom. From the project's seeded uniform source, so a seed fixes every CI.
 */
import type { RandomSource } from './rng.ts'

/** A standard normal draw (Box-Muller; 1 - u keeps the logarithm finite). */
export function normal(random: RandomSource): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
}

/** A Gamma(shape, 1) draw (Marsaglia and Tsang; shape < 1 through Gamma(shape + 1) x U^(1 / shape)). */
function gamma(shape: number, random: RandomSource): number {
  if (shape < 1) return gamma(shape + 1, random) * (1 - random()) ** (1 / shape)
  const d = shape - 1 / 3
  const c = 1 / Math.sqrt(9 * d)
  for (;;) {
    const x = normal(random)
    const v = (1 + c * x) ** 3
    if (v <= 0) continue
    const u = 1 - random()
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v
  }
}

/** sqrt(nu / chi2_nu), chi2_nu = 2 Gamma(nu / 2): turns a normal draw into a Student's t draw, nu need not be whole. */
export function tScale(nu: number, random: RandomSource): number {
  return Math.sqrt(nu / (2 * gamma(nu / 2, random)))
}

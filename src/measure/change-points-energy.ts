/**
 * The E-Divisive statistic (Matteson & James 2014, alpha = 1) over every allowed split of one short segment, and its
 * permutation test. Pure arithmetic on Float64Arrays; the detector decides which segments and splits to look at.
 *
 * For a split of x[0..m) at t into X = x[0..t) and Y = x[t..m) (n = t, k = m - t):
 *   E = 2/(n k) sum|X - Y| - sum|X - X'| / C(n, 2) - sum|Y - Y'| / C(k, 2),   Q = n k / (n + k) * E
 * E is the energy distance (zero in expectation when X and Y have one distribution, whatever it is); the n k / (n + k)
 * weight keeps Q on one scale across split positions, so the best split is the argmax and the permutation null of the
 * max over splits pays for having searched.
 *
 * Cost: one pass over all pairs gives, per point, its summed distance to the points before it and after it; every split
 * then follows from running sums, so a whole profile is O(m^2). The detector only hands over segments of at most one
 * window (60 points, 1,770 pairs): there the plain pair loop beats an O(m log m) rank tree (which needs a sort and two
 * Fenwick passes with count and sum per point) and has no ranking step to redo per permutation. The window, not this
 * loop, is what keeps the detector linear in the history's length.
 */
import { type RandomSource, randomIndex } from './rng.ts'

/** Reusable buffers, sized for the largest segment one detector call tests, so no permutation allocates. */
export interface EnergyScratch {
  toEarlier: Float64Array
  toLater: Float64Array
  shuffled: Float64Array
  profile: Float64Array
}

export function createEnergyScratch(size: number): EnergyScratch {
  return {
    toEarlier: new Float64Array(size),
    toLater: new Float64Array(size),
    shuffled: new Float64Array(size),
    profile: new Float64Array(size),
  }
}

/**
 * Q at each split in `cuts` (local offsets, ascending, each side >= 2 points) of `segment[0..m)`, written to
 * `scratch.profile[0..cuts.length)`.
 */
export function energyProfile(segment: Float64Array, m: number, cuts: Int32Array, scratch: EnergyScratch): void {
  const { toEarlier, toLater, profile } = scratch
  toEarlier.fill(0, 0, m)
  for (let i = 0; i < m; i++) {
    const xi = segment[i] as number
    let later = 0
    for (let j = i + 1; j < m; j++) {
      const d = Math.abs(xi - (segment[j] as number))
      later += d
      toEarlier[j] = (toEarlier[j] as number) + d
    }
    toLater[i] = later
  }
  let total = 0
  for (let i = 0; i < m; i++) total += toEarlier[i] as number
  let sumEarlier = 0
  let sumLater = 0
  let k = 0
  for (let c = 0; c < cuts.length; c++) {
    const t = cuts[c] as number
    for (; k < t; k++) {
      sumEarlier += toEarlier[k] as number
      sumLater += toLater[k] as number
    }
    // Pairs within the left part, within the right part, and across.
    const within = sumEarlier
    const right = total - sumLater
    const across = sumLater - sumEarlier
    const n = t
    const r = m - t
    const e = (2 * across) / (n * r) - (2 * within) / (n * (n - 1)) - (2 * right) / (r * (r - 1))
    profile[c] = ((n * r) / (n + r)) * e
  }
}

/** Position in `cuts` of the largest Q of the last `energyProfile` call (the first one on ties), and that Q. */
export function bestCut(scratch: EnergyScratch, cutCount: number): { cut: number; q: number } {
  let cut = 0
  let q = scratch.profile[0] as number
  for (let c = 1; c < cutCount; c++) {
    const value = scratch.profile[c] as number
    if (value > q) {
      q = value
      cut = c
    }
  }
  return { cut, q }
}

/**
 * Permutation p-value of `observed` against the max of Q over the same cuts with the segment's values shuffled:
 * (1 + #{max >= observed}) / (1 + permutations). Shuffling treats the points as exchangeable under "no change".
 * A relative tolerance counts permutations whose Q equals the observed one up to rounding (same multiset, other
 * summation order), so ties never make the test anti-conservative.
 *
 * Stops early (after Besag & Clifford 1991) once so many permutations reach the observed value that the full run
 * could not end below `alpha`: the decision is the full test's, a split with p near 0.5 costs about 18 draws instead
 * of 199, and the p returned is the same formula over the draws made, (1 + #{max >= observed}) / (1 + drawn), which
 * is then above (1 + #) / (1 + permutations) >= alpha. (Besag & Clifford's # / drawn could dip just below alpha.)
 */
export function permutationPValue(
  segment: Float64Array,
  m: number,
  cuts: Int32Array,
  observed: number,
  test: { permutations: number; alpha: number; random: RandomSource },
  scratch: EnergyScratch,
): number {
  const { permutations, alpha, random } = test
  const shuffled = scratch.shuffled
  shuffled.set(segment.subarray(0, m))
  const bar = observed - 1e-9 * Math.abs(observed)
  // 1 + atLeast >= alpha (1 + permutations) means p >= alpha whatever the remaining draws give.
  const enough = Math.ceil(alpha * (1 + permutations) - 1)
  let atLeast = 0
  for (let drawn = 1; drawn <= permutations; drawn++) {
    // Fisher-Yates from whatever order the buffer is in: each shuffle is uniform on its own.
    for (let i = m - 1; i > 0; i--) {
      const j = randomIndex(random, i + 1)
      const swap = shuffled[i] as number
      shuffled[i] = shuffled[j] as number
      shuffled[j] = swap
    }
    energyProfile(shuffled, m, cuts, scratch)
    if (bestCut(scratch, cuts.length).q >= bar) atLeast++
    if (atLeast >= enough && drawn < permutations) return (1 + atLeast) / (1 + drawn)
  }
  return (1 + atLeast) / (1 + permutations)
}

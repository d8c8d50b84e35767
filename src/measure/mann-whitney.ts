/**
 * Two-sided Mann-Whitney U (Wilcoxon rank-sum) test.
 *
 * - Exact when n1 + n2 <= EXACT_MAX_TOTAL: the permutation distribution of the rank sum, counted by dynamic programming
 *   over subsets. Ranks are doubled midranks (integers), so ties are handled exactly too (the test is then conditional
 *   on the observed ties, as in R's coin/exactRankTests) rather than falling back to an approximation for small samples,
 *   where the approximation is worst. Without ties this is the classical exact null distribution.
 * - Otherwise the normal approximation with tie-corrected variance and continuity correction.
 * simple-statistics has a `wilcoxonRankSum` statistic but no p-value, so the distribution is ours.
 */
import { errorFunction } from 'simple-statistics'
import { validateSamples } from './samples.ts'

/** Largest total sample size for the exact test. Subset counts stay exact in doubles (C(50, 25) < 2^53). */
export const EXACT_MAX_TOTAL = 50

export interface MannWhitneyResult {
  /** U of the first sample: the number of (x, y) pairs with x > y, ties counting 1/2. */
  u: number
  /** U / (n1 n2): estimated P(X > Y) + P(X = Y) / 2; 0.5 means no shift. */
  probabilityOfSuperiority: number
  /** Two-sided p-value. */
  p: number
  method: 'exact' | 'normal-tie-corrected'
  ties: boolean
  n1: number
  n2: number
}

/** Doubled midranks of the pooled values (integers) for the first `n1` entries, plus the tie-group sizes. */
function doubledMidranks(pooled: readonly number[]): { ranks2: Int32Array; tieSizes: number[] } {
  const order = pooled.map((_, index) => index).sort((a, b) => (pooled[a] as number) - (pooled[b] as number))
  const ranks2 = new Int32Array(pooled.length)
  const tieSizes: number[] = []
  for (let start = 0; start < order.length; ) {
    let end = start
    while (end + 1 < order.length && pooled[order[end + 1] as number] === pooled[order[start] as number]) end++
    // 1-based positions start+1 .. end+1 share the midrank (start+end+2)/2; doubled it is an integer.
    for (let i = start; i <= end; i++) ranks2[order[i] as number] = start + end + 2
    if (end > start) tieSizes.push(end - start + 1)
    start = end + 1
  }
  return { ranks2, tieSizes }
}

/** Counts of size-m subsets of `ranks2` by sum (index = doubled rank sum). */
function subsetSumCounts(ranks2: Int32Array, m: number): Float64Array {
  const maxSum = ranks2.reduce((total, rank) => total + rank, 0)
  const width = maxSum + 1
  const table = new Float64Array((m + 1) * width)
  table[0] = 1
  for (const rank of ranks2) {
    for (let k = m; k >= 1; k--) {
      const row = k * width
      const previous = (k - 1) * width
      for (let s = maxSum; s >= rank; s--) {
        table[row + s] = (table[row + s] as number) + (table[previous + s - rank] as number)
      }
    }
  }
  return table.subarray(m * width, (m + 1) * width)
}

function exactTwoSidedP(ranks2: Int32Array, m: number, observed2: number): number {
  const counts = subsetSumCounts(ranks2, m)
  const center2 = m * (ranks2.length + 1)
  const distance = Math.abs(observed2 - center2)
  let extreme = 0
  let total = 0
  for (let s = 0; s < counts.length; s++) {
    const count = counts[s] as number
    total += count
    if (Math.abs(s - center2) >= distance) extreme += count
  }
  return Math.min(1, extreme / total)
}

function normalTwoSidedP(u: number, n1: number, n2: number, tieSizes: number[]): number {
  const total = n1 + n2
  const tieTerm = tieSizes.reduce((sum, t) => sum + t ** 3 - t, 0) / (total * (total - 1))
  const variance = ((n1 * n2) / 12) * (total + 1 - tieTerm)
  if (variance <= 0) return 1
  const z = Math.max(0, Math.abs(u - (n1 * n2) / 2) - 0.5) / Math.sqrt(variance)
  return Math.min(1, 1 - errorFunction(z / Math.SQRT2))
}

/**
 * Mann-Whitney U test of x against y, two-sided. `exactMaxTotal` lowers the size limit of the exact test (never raises
 * it past EXACT_MAX_TOTAL, where the counts would stop being exact).
 * @throws MeasureInputError when either sample is empty or holds a value that is not finite.
 */
export function mannWhitney(
  x: readonly number[],
  y: readonly number[],
  options: { exactMaxTotal?: number } = {},
): MannWhitneyResult {
  validateSamples(x, 'mann-whitney x')
  validateSamples(y, 'mann-whitney y')
  const n1 = x.length
  const n2 = y.length
  const { ranks2, tieSizes } = doubledMidranks([...x, ...y])
  let rankSum2 = 0
  for (let i = 0; i < n1; i++) rankSum2 += ranks2[i] as number
  const u = rankSum2 / 2 - (n1 * (n1 + 1)) / 2
  const exact = n1 + n2 <= Math.min(EXACT_MAX_TOTAL, options.exactMaxTotal ?? EXACT_MAX_TOTAL)
  const p = exact ? exactTwoSidedP(ranks2, n1, rankSum2) : normalTwoSidedP(u, n1, n2, tieSizes)
  const method = exact ? 'exact' : 'normal-tie-corrected'
  return { u, probabilityOfSuperiority: u / (n1 * n2), p, method, ties: tieSizes.length > 0, n1, n2 }
}

/** The smallest two-sided exact p-value any data can give with these sizes: 2 / C(n1 + n2, n1). */
export function smallestExactP(n1: number, n2: number): number {
  let combinations = 1
  for (let i = 1; i <= n1; i++) combinations = (combinations * (n2 + i)) / i
  return Math.min(1, 2 / combinations)
}

/**
 * Per-GPU balance: whether the workers of one multi-GPU run finished their share in about the same time. A run is only
 * as fast as its slowest worker, so spread is time thrown away on the others.
 */
import { MeasureInputError } from './errors.ts'
import { median } from './estimators.ts'
import { toSorted } from './samples.ts'

/** Default spread above which the balance is flagged: 10% of the mean worker time. */
export const DEFAULT_MAX_SPREAD = 0.1

export interface WorkerTimes {
  worker: string
  /** One value per repeated run; the worker's time is their median. */
  durationsMs: readonly number[]
}

export interface BalanceResult {
  workers: { worker: string; medianMs: number; n: number }[]
  meanMs: number
  minMs: number
  maxMs: number
  /** (max - min) / mean of the per-worker medians. */
  spread: number
  /** max / mean - 1: the share of the run the average worker spends waiting for the slowest. */
  imbalance: number
  slowest: string
  maxSpread: number
  verdict: 'pass' | 'flag' | 'inconclusive'
  reason: string
}

/**
 * Balance over per-worker times.
 * @throws MeasureInputError when a worker has no times, a time is not finite, or the mean worker time is not positive.
 */
export function workerBalance(workers: readonly WorkerTimes[], maxSpread = DEFAULT_MAX_SPREAD): BalanceResult {
  const perWorker = workers.map((entry) => ({
    worker: entry.worker,
    medianMs: median(toSorted(entry.durationsMs, `worker ${entry.worker} durationsMs`)),
    n: entry.durationsMs.length,
  }))
  const times = perWorker.map((entry) => entry.medianMs)
  const meanMs = times.reduce((sum, time) => sum + time, 0) / Math.max(1, times.length)
  const minMs = times.length > 0 ? Math.min(...times) : 0
  const maxMs = times.length > 0 ? Math.max(...times) : 0
  const slowest = perWorker.find((entry) => entry.medianMs === maxMs)?.worker ?? ''
  if (perWorker.length < 2) {
    const reason = `${perWorker.length} worker(s): balance needs at least 2`
    return {
      workers: perWorker,
      meanMs,
      minMs,
      maxMs,
      spread: 0,
      imbalance: 0,
      slowest,
      maxSpread,
      verdict: 'inconclusive',
      reason,
    }
  }
  if (!(meanMs > 0)) throw new MeasureInputError('worker times', `mean must be positive, got ${meanMs}`)
  const spread = (maxMs - minMs) / meanMs
  const imbalance = maxMs / meanMs - 1
  const verdict = spread > maxSpread ? 'flag' : 'pass'
  const reason = `spread ${(spread * 100).toFixed(1)}% of the mean worker time (limit ${(maxSpread * 100).toFixed(1)}%), slowest ${slowest}`
  return { workers: perWorker, meanMs, minMs, maxMs, spread, imbalance, slowest, maxSpread, verdict, reason }
}

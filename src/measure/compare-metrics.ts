/**
 * The regression gate over many metrics at once. Each metric gets its own random stream derived from the seed and its
 * name, so a metric's verdict does not change when other metrics are added, removed or reordered.
 */
import { MeasureInputError } from './errors.ts'
import { compareRuns, type MetricDirection, type RegressionOptions, type RegressionResult } from './regression.ts'
import { createRandomSource, DEFAULT_SEED } from './rng.ts'

export interface MetricRuns {
  name: string
  candidate: readonly number[]
  baseline: readonly number[]
  /** Per-metric practical threshold (share); falls back to the shared option, then to 10%. */
  threshold?: number
  direction?: MetricDirection
}

export type MetricComparison = RegressionResult & { name: string }

export interface CompareMetricsOptions extends Omit<RegressionOptions, 'random' | 'threshold' | 'direction'> {
  threshold?: number
  seed?: string
}

/**
 * Compares every metric's candidate runs with its baseline runs.
 * @throws MeasureInputError naming the metric, with the error from compareRuns as its cause.
 */
export function compareMetrics(
  metrics: readonly MetricRuns[],
  options: CompareMetricsOptions = {},
): MetricComparison[] {
  const seed = options.seed ?? DEFAULT_SEED
  return metrics.map((metric) => {
    const random = createRandomSource(`${seed}/${metric.name}`)
    const threshold = metric.threshold ?? options.threshold
    const settings: RegressionOptions = { ...options, random }
    if (threshold !== undefined) settings.threshold = threshold
    if (metric.direction !== undefined) settings.direction = metric.direction
    try {
      return { name: metric.name, ...compareRuns(metric.candidate, metric.baseline, settings) }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      throw new MeasureInputError(`metric "${metric.name}"`, message, { cause: error })
    }
  })
}

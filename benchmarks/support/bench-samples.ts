import type { TestContext } from 'vitest'

/**
 * Reports wall times measured by the suite's repetition policy (real target runs, warm-ups excluded) as a vitest
 * benchmark: each iteration hands tinybench one measured duration through `overriddenDuration`, so the benchmark's
 * samples, mean and percentiles are those runs, not a re-run. Returns the benchmark result.
 */
export async function benchFromSamples(bench: TestContext['bench'], name: string, samplesMs: readonly number[]) {
  let i = 0
  const task = bench(name, () => ({ overriddenDuration: samplesMs[i++ % samplesMs.length]! }))
  return task.run({ iterations: samplesMs.length, warmupIterations: 0, time: 0 })
}

/**
 * The e2e suite's large-sample stability verdict on real H200 runs (test/fixtures/h200-runs): 2,000-sequence runs as
 * the typical sample, the 5,000-sequence run as the large one. Whole-run seq/s differs by ~1.3x between them because
 * a larger run amortizes the same start-up; the verdict judges ESM-2 inference tokens/s, which does not move unless
 * the GPU work itself slows down.
 */
import { describe, expect, test } from 'vitest'
import { DEFAULT_THRESHOLDS } from '../../../src/config/thresholds.ts'
import type { MeasuredConfiguration } from '../../../src/engine/measure-configuration.ts'
import type { RunObservation } from '../../../src/engine/observe-run.ts'
import type { E2eStats } from '../../../src/suites/e2e/e2e.ts'
import { analyzeE2e } from '../../../src/suites/e2e/e2e-verdicts.ts'
import { loadH200Run } from '../support/h200-runs.ts'

function measured(label: string, observations: RunObservation[]): MeasuredConfiguration {
  return { config: { label, gpus: [0] }, observations, stop: 'run-budget', failure: null, reusedRuns: 0 }
}

/** The run with its ESM-2 inference rate scaled by `factor` (a planted slow-down of the GPU work). */
function slowed(o: RunObservation, factor: number): RunObservation {
  return {
    ...o,
    esm2Completions: o.esm2Completions.map((c) => ({ ...c, tokensPerS: (c.tokensPerS ?? 0) * factor })),
  }
}

function stability(large: RunObservation) {
  const typical = measured('typical', [loadH200Run('2000-run-1'), loadH200Run('2000-run-2')])
  const { stats, verdicts } = analyzeE2e(
    { typical, large: measured('large', [large]), matrix: null },
    DEFAULT_THRESHOLDS,
  )
  return { large: (stats as E2eStats).large!, verdict: verdicts.find((v) => v.id === 'e2e/large/throughput')! }
}

describe('e2e large-sample stability on real H200 runs', () => {
  test('a larger sample is not a regression: whole-run seq/s differs by > 20%, ESM-2 tokens/s does not', () => {
    const { large, verdict } = stability(loadH200Run('5000'))
    // Whole run: 224.8 seq/s (5,000) against 163.8 / 175.6 (2,000): start-up amortized, not judged.
    expect(large.ratioToTypical).toBeGreaterThan(1.2)
    // ESM-2: 94,967 tok/s against 94,015 / 94,778.
    expect(large.esm2RatioToTypical).toBeCloseTo(94_967 / ((94_015 + 94_778) / 2), 3)
    expect(verdict).toMatchObject({ verdict: 'pass', unit: 'x typical' })
    expect(verdict.detail).toContain('94967 ESM-2 tok/s')
  })

  test('ESM-2 inference 30% slower on the large sample fails the verdict', () => {
    const { large, verdict } = stability(slowed(loadH200Run('5000'), 0.7))
    expect(large.esm2RatioToTypical).toBeLessThan(0.8)
    expect(verdict.verdict).toBe('fail')
  })

  test('a large run without an ESM-2 rate line is inconclusive, not passed', () => {
    const run = loadH200Run('5000')
    const { verdict } = stability({ ...run, esm2Completions: [] })
    expect(verdict.verdict).toBe('inconclusive')
    expect(verdict.detail).toContain('no completed large run with an ESM-2 inference rate')
  })
})

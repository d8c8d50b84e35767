import { describe, expect, test } from 'vitest'
import {
  applyRules,
  BOTTLENECK_RULES,
  type RuleLimits,
  type StageEvidence,
} from '../../../src/report/analyses/bottleneck-rules.ts'

const LIMITS: RuleLimits = { maxStageShare: 0.3, minGpuUtilPct: 80, maxSpread: 0.1, imbalanceMinUtilPct: 20 }

/** A healthy GPU stage: no rule applies. */
const HEALTHY: StageEvidence = {
  stage: 'ESM-2 Feature Extraction',
  gpuStage: true,
  share: 0.2,
  durationMs: 10_000,
  utilPct: 95,
  smUtilPct: 85,
  longestIdleMs: 200,
  innerIdleMs: 200,
  leadingIdleMs: 300,
  steadyUtilPct: 96,
  throttledSamples: 0,
  gpuSpread: 0.02,
  workingGpus: 2,
  busiestGpuUtilPct: 96,
  packEfficiency: 0.95,
  loaderWaitGrowthMs: null,
  unexpectedGpus: [],
  idleRequestedGpus: [],
}

// One row per rule: the change to the healthy evidence that must trigger it, and a near miss that must not.
const CASES: [string, Partial<StageEvidence>, Partial<StageEvidence>][] = [
  ['time-share', { share: 0.31 }, { share: 0.3 }],
  ['low-util-short-batches', { utilPct: 60, packEfficiency: 0.5 }, { utilPct: 60, packEfficiency: 0.85 }],
  ['low-util-loader-wait', { utilPct: 60, loaderWaitGrowthMs: 4 }, { utilPct: 60, loaderWaitGrowthMs: 0 }],
  ['low-util-idle-gaps', { utilPct: 60, innerIdleMs: 1_500 }, { utilPct: 60, innerIdleMs: 900 }],
  ['slow-start', { leadingIdleMs: 1_000 }, { leadingIdleMs: 999 }],
  ['low-util', { utilPct: 79.9 }, { utilPct: 80 }],
  ['busy-not-working', { utilPct: 95, smUtilPct: 60 }, { utilPct: 95, smUtilPct: 66 }],
  ['throttling', { throttledSamples: 3 }, { throttledSamples: 0 }],
  ['gpu-imbalance', { gpuSpread: 0.25 }, { gpuSpread: 0.1 }],
  ['unexpected-gpus', { unexpectedGpus: [2] }, { unexpectedGpus: [] }],
  ['idle-requested-gpus', { idleRequestedGpus: [1] }, { idleRequestedGpus: [] }],
]

describe('bottleneck rule table', () => {
  test('every rule in the table has a case here', () => {
    expect(CASES.map(([id]) => id).sort()).toEqual(BOTTLENECK_RULES.map((r) => r.id).sort())
  })

  test('a healthy stage raises nothing', () => {
    expect(applyRules(HEALTHY, LIMITS)).toEqual([])
  })

  test.each(CASES)('%s fires on its evidence, with a recommendation, and not on the near miss', (id, hit, miss) => {
    const flags = applyRules({ ...HEALTHY, ...hit }, LIMITS)
    const flag = flags.find((f) => f.rule === id)
    expect(flag?.evidence.length).toBeGreaterThan(0)
    expect(flag?.recommendation).toBe(BOTTLENECK_RULES.find((r) => r.id === id)?.recommendation)
    expect(applyRules({ ...HEALTHY, ...miss }, LIMITS).some((f) => f.rule === id)).toBe(false)
  })

  test('low utilization in a CPU stage is not a GPU bottleneck', () => {
    expect(applyRules({ ...HEALTHY, gpuStage: false, utilPct: 5, leadingIdleMs: 5_000 }, LIMITS)).toEqual([])
  })

  test('a long start-up is not a gap between batches: slow-start, not low-util-idle-gaps', () => {
    // The H200 clean run's DNABERT-S: 1.9 s before the first batch, then back-to-back batches.
    const rules = applyRules(
      { ...HEALTHY, stage: 'DNABERT-S Feature Extraction', utilPct: 36, longestIdleMs: 1_900, leadingIdleMs: 1_900 },
      LIMITS,
    ).map((f) => f.rule)
    expect(rules).toContain('slow-start')
    expect(rules).not.toContain('low-util-idle-gaps')
  })

  test('gpu-imbalance needs work sharded over 2+ GPUs: a single-process stage spreading 200% is not imbalanced', () => {
    // One GPU busy (even fully), the other idle: the spread is 200% by construction.
    const single = { ...HEALTHY, gpuStage: false, utilPct: 50, gpuSpread: 2, workingGpus: 1, busiestGpuUtilPct: 100 }
    expect(applyRules(single, LIMITS).map((f) => f.rule)).not.toContain('gpu-imbalance')
    expect(applyRules({ ...single, workingGpus: 2 }, LIMITS).map((f) => f.rule)).toContain('gpu-imbalance')
  })

  test('gpu-imbalance needs the busier GPU at or above bottleneck.imbalanceMinUtilPct: below it a spread is noise', () => {
    const nearIdle = { ...HEALTHY, utilPct: 3.6, gpuSpread: 0.46, workingGpus: 2, busiestGpuUtilPct: 19.9 }
    expect(applyRules(nearIdle, LIMITS).map((f) => f.rule)).not.toContain('gpu-imbalance')
    const flag = applyRules({ ...nearIdle, busiestGpuUtilPct: 20 }, LIMITS).find((f) => f.rule === 'gpu-imbalance')
    expect(flag?.evidence).toBe(
      'per-GPU utilization spread 46.0% over 2 working GPUs, busiest at 20.0% (rule: <= 10.0% where the work is sharded and the busiest GPU is at >= 20.0%)',
    )
    const lower = applyRules(nearIdle, { ...LIMITS, imbalanceMinUtilPct: 15 }).map((f) => f.rule)
    expect(lower).toContain('gpu-imbalance')
  })

  test('a specific low-utilization rule replaces the catch-all', () => {
    const rules = applyRules({ ...HEALTHY, utilPct: 60, packEfficiency: 0.5 }, LIMITS).map((f) => f.rule)
    expect(rules).toContain('low-util-short-batches')
    expect(rules).not.toContain('low-util')
  })
})

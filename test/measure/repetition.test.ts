import { describe, expect, test } from 'vitest'
import {
  armForRun,
  DEFAULT_REPETITION_POLICY,
  measuredDurations,
  nextStep,
  type RecordedRun,
} from '../../src/measure/repetition.ts'

const policy = { ...DEFAULT_REPETITION_POLICY, minRuns: 6, maxRuns: 10, targetRelHalfWidth: 0.02 }

/** Drives the policy with a given duration per call, as a runner would. */
function drive(arms: string[], durationOf: (arm: string, k: number) => number, maxTotalMs = Number.POSITIVE_INFINITY) {
  const runs: RecordedRun[] = []
  let elapsedMs = 0
  for (;;) {
    const step = nextStep(runs, elapsedMs, arms, { ...policy, maxTotalMs })
    if (step.action === 'stop') return { runs, step }
    const durationMs = durationOf(step.arm, runs.length)
    runs.push({ arm: step.arm, phase: step.phase, durationMs })
    elapsedMs += durationMs
  }
}

describe('nextStep', () => {
  test('warms up first, keeps the warm-up on record, and leaves it out of the statistics', () => {
    const { runs, step } = drive(['run'], (_, k) => (k === 0 ? 5000 : 1000 + (k % 3)))
    expect(runs[0]).toEqual({ arm: 'run', phase: 'warmup', durationMs: 5000 })
    expect(measuredDurations(runs, 'run')).not.toContain(5000)
    expect(step).toMatchObject({ action: 'stop', reason: 'precision-reached' })
  })

  test('stable runs stop at the minimum (6: the smallest n with a 95% distribution-free CI)', () => {
    const { runs } = drive(['run'], () => 1000)
    expect(measuredDurations(runs, 'run')).toHaveLength(6)
  })

  test('noisy runs go on to the run budget', () => {
    const { runs, step } = drive(['run'], (_, k) => 1000 * (1 + 0.3 * Math.sin(k * 7)))
    expect(step).toMatchObject({ action: 'stop', reason: 'run-budget' })
    expect(measuredDurations(runs, 'run')).toHaveLength(10)
  })

  test('stops before a run that would overrun the time budget', () => {
    const { step, runs } = drive(['run'], (_, k) => 1000 * (1 + 0.3 * Math.sin(k * 7)), 4500)
    expect(step).toMatchObject({ action: 'stop', reason: 'time-budget' })
    expect(runs.reduce((sum, r) => sum + r.durationMs, 0)).toBeLessThanOrEqual(4500)
  })

  test('A/B runs interleave A B A B, warm-ups included, and stop with the arms balanced', () => {
    const { runs, step } = drive(['A', 'B'], (arm) => (arm === 'A' ? 1000 : 1100))
    expect(runs.map((r) => r.arm).join('')).toBe('AB'.repeat(runs.length / 2))
    expect(step.action === 'stop' && step.arms.map((a) => a.measured.length)).toEqual([6, 6])
  })

  test('rejects a policy with maxRuns < minRuns', () => {
    expect(() => nextStep([], 0, ['run'], { ...policy, minRuns: 5, maxRuns: 3 })).toThrow(/minRuns <= maxRuns/)
  })
})

describe('armForRun', () => {
  test('alternate is A B A B, counterbalanced is A B B A', () => {
    const order = (o: 'alternate' | 'counterbalanced') => [0, 1, 2, 3, 4, 5].map((k) => armForRun(['A', 'B'], k, o))
    expect(order('alternate').join('')).toBe('ABABAB')
    expect(order('counterbalanced').join('')).toBe('ABBAAB')
  })
})

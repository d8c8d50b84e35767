import { describe, expect, test } from 'vitest'
import type { CapacityRun } from '../../src/capacity/runs.ts'
import { createRandomSource } from '../../src/measure/rng.ts'
import { analyzeOneConfiguration } from './support/analyze-one.ts'

const ESM2 = 'ESM-2 Feature Extraction'
const SIX_M = 6_000_000

/**
 * A v2-like ESM-2 run at `size`: 20 s of model build, then a loader that reads `readMsPerSeq` a sequence before the
 * first batch (the GPU idle), then `workMsPerSeq` a sequence of batches at `steadyPct`; 10 s outside the stage.
 */
function v2Run(
  size: number,
  noise: () => number,
  { readMsPerSeq = 5, workMsPerSeq = 4, steadyPct = 68 } = {},
): CapacityRun {
  const startupMs = 20_000 + readMsPerSeq * size + noise()
  const workMs = workMsPerSeq * size * (1 + noise() / 50_000)
  const steady = steadyPct + noise() / 2_000
  const values = {
    'outside stages': 10_000 + noise(),
    [ESM2]: startupMs + workMs,
    [`busy: ${ESM2}`]: (workMs * steady) / 100,
    wall: 0,
  }
  values.wall = values['outside stages'] + values[ESM2]
  return { label: `${size}`, size, values, startup: { [ESM2]: { startupMs, steadyUtilPct: steady } }, steady: {} }
}

const esm2At = (runs: CapacityRun[]) => {
  const stage = analyzeOneConfiguration(runs).stats.configurations[0]!.stages.find((s) => s.stage === ESM2)!
  return { stage, at6m: stage.utilAt.find((u) => u.sequences === SIX_M)! }
}

describe("a GPU stage's utilization as the input grows: the marginal busy share across sizes", () => {
  // The loader's read before the first batch grows with the input (v2's ESM-2 workers read their whole share first):
  // 5 of every 9 ms a sequence adds are idle, so 6 M runs at 68% x 4 / 9 = 30.2%, not at the 68% of the batches.
  test('a start-up that grows with the input: 6 M tends to d busy / d stage, below the steady state, and says why', () => {
    const random = createRandomSource('marginal-busy-share')
    const noise = () => (random() - 0.5) * 1_000
    const runs = [1_000, 3_750, 18_750].flatMap((n) => [0, 1, 2].map(() => v2Run(n, noise)))
    const { stage, at6m } = esm2At(runs)
    const marginalPct = (68 * 4) / 9
    expect(stage.steadyUtilPct!.median).toBeCloseTo(68, 0)
    expect(stage.asymptoticUtilPct!.estimate).toBeCloseTo(marginalPct, 0)
    expect(at6m.utilPct!.estimate).toBeCloseTo(marginalPct, 0)
    expect(at6m.utilPct!.ci!.low).toBeLessThanOrEqual(marginalPct)
    expect(at6m.utilPct!.ci!.high).toBeGreaterThanOrEqual(marginalPct)
    expect(at6m.disagreement).toMatch(
      /^once at work the GPU is 68\.\d% .* busy, but across sizes each added ms of the stage is 30\.\d% .* busy: its idle time .* grows with the input/,
    )
    // At the largest measured size the projection is what the runs there measured.
    const measured = stage.utilAt.find((u) => u.sequences === 18_750)!
    expect(measured.utilPct!.estimate).toBeCloseTo((68 * 4 * 18_750) / (20_000 + 9 * 18_750), 0)
    expect(measured.disagreement).toBeNull()
  })

  test('a start-up that does not grow: the marginal share and the steady state agree, nothing to say', () => {
    const random = createRandomSource('marginal-equals-steady')
    const noise = () => (random() - 0.5) * 1_000
    const runs = [1_000, 3_750, 18_750].flatMap((n) => [0, 1, 2].map(() => v2Run(n, noise, { readMsPerSeq: 0 })))
    const { stage, at6m } = esm2At(runs)
    expect(stage.asymptoticUtilPct!.estimate).toBeCloseTo(68, 0)
    expect(at6m.utilPct!.estimate).toBeCloseTo(68, 0)
    expect(at6m.disagreement).toBeNull()
  })

  test('a busy line steeper than the stage: held at the steady state, inside 0-100%, and said', () => {
    const random = createRandomSource('marginal-above-steady')
    const noise = () => (random() - 0.5) * 200
    // Utilization that rises with size (fuller batches): the busy line's slope is 90% of the stage's; steady 70%.
    const runs = [1_000, 3_750, 18_750].flatMap((n) =>
      [0, 1, 2].map(() => {
        const r = v2Run(n, noise, { readMsPerSeq: 0, steadyPct: 70 })
        r.values[`busy: ${ESM2}`] = 0.9 * (r.values[ESM2]! - 20_000)
        return r
      }),
    )
    const { stage, at6m } = esm2At(runs)
    expect(stage.asymptoticUtilPct!.estimate).toBeCloseTo(70, 0)
    expect(at6m.utilPct!.estimate).toBeLessThanOrEqual(70.5)
    expect(at6m.utilPct!.ci!.high).toBeLessThanOrEqual(100)
    expect(at6m.disagreement).toMatch(/held at the steady state/)
  })

  // The records behind issue 36's 13.5% at 6 M: a steady state from the first busy sample (the model's load), the wait
  // for the first batch inside it. The projection is not held at it: it tends to the busy line's marginal share.
  test('a steady state read from the first busy sample (older records): not a bound, not set beside the marginal share', () => {
    const random = createRandomSource('marginal-first-busy')
    const noise = () => (random() - 0.5) * 1_000
    const runs = [1_000, 3_750, 18_750].flatMap((n) =>
      [0, 1, 2].map(() => {
        const r = v2Run(n, noise)
        r.startup[ESM2] = { startupMs: 20_000, steadyUtilPct: 13.5 + noise() / 5_000, steadyFrom: 'first-busy' }
        return r
      }),
    )
    const { stage, at6m } = esm2At(runs)
    expect(stage.steadyUtilPct!.median).toBeCloseTo(13.5, 0)
    expect(at6m.utilPct!.estimate).toBeCloseTo((68 * 4) / 9, 0)
    expect(at6m.disagreement).toBeNull()
  })
})

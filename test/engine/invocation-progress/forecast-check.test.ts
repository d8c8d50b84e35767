import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { EarlierProgress } from '../../../src/engine/invocation-progress/earlier-progress.ts'
import {
  DISAGREEMENT_FACTOR,
  droppedText,
  forecastDisagreement,
} from '../../../src/engine/invocation-progress/forecast-check.ts'
import { applyLine, newTally, type Tally } from '../../../src/engine/invocation-progress/tally.ts'

const FILE = 'benchmarks/scaling.gpu.test.ts'
const ARM = '1 GPU, 1,000 seqs'

const earlierOf = (runMs: number | null, warmupMs: number | null = null): EarlierProgress => ({
  files: {
    [FILE]: { runs: 3, reused: 0, spanMs: 30_000, runId: 'R0', armsMs: { [ARM]: { 'warm-up': warmupMs, run: runMs } } },
  },
  kept: {},
})

function tallyOf(walls: { phase: 'warm-up' | 'run'; wallMs: number }[]): Tally {
  const t = newTally()
  for (const [i, w] of walls.entries())
    applyLine(t, {
      type: 'run',
      at: i,
      file: FILE,
      measurement: 'm',
      arm: ARM,
      phase: w.phase,
      n: i + 1,
      wallMs: w.wallMs,
      exitClass: 'completed',
      reused: null,
    })
  return t
}

describe('a forecast that disagrees with its own runs is dropped', () => {
  test('the issue: the earlier ledger said 2 s a run, this invocation takes 20 s', () => {
    const d = forecastDisagreement(earlierOf(2_000), tallyOf([{ phase: 'run', wallMs: 20_000 }]), {
      file: FILE,
      arm: ARM,
      phase: 'run',
    })
    expect(d).toEqual({ earlierMs: 2_000, nowMs: 20_000 })
    expect(droppedText(d!)).toBe(
      "forecast dropped: the earlier invocation's runs took 2.0 s, these take 20.0 s (over 2x apart), so files not started have no forecast until they run",
    )
  })

  test(`within ${DISAGREEMENT_FACTOR}x either way it stands; beyond, it is dropped; phase for phase; nothing to compare, nothing said`, () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 600_000 }), fc.double({ min: 0.05, max: 20, noNaN: true }), (ms, r) => {
        // Off the edges, where the product's rounding decides.
        fc.pre(Math.abs(r - DISAGREEMENT_FACTOR) > 1e-9 && Math.abs(r - 1 / DISAGREEMENT_FACTOR) > 1e-9)
        const d = forecastDisagreement(earlierOf(ms), tallyOf([{ phase: 'run', wallMs: ms * r }]), {
          file: FILE,
          arm: ARM,
          phase: 'run',
        })
        const apart = r > DISAGREEMENT_FACTOR || r < 1 / DISAGREEMENT_FACTOR
        expect(d !== null).toBe(apart)
      }),
    )
    // A slow cold warm-up is held against the earlier warm-ups, not its runs.
    const warm = tallyOf([{ phase: 'warm-up', wallMs: 9_000 }])
    expect(forecastDisagreement(earlierOf(2_000, 8_000), warm, { file: FILE, arm: ARM, phase: 'warm-up' })).toBeNull()
    expect(forecastDisagreement(earlierOf(2_000, null), warm, { file: FILE, arm: ARM, phase: 'warm-up' })).toBeNull()
    expect(forecastDisagreement(earlierOf(2_000), warm, { file: FILE, arm: 'other arm', phase: 'run' })).toBeNull()
  })
})

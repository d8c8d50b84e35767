import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { runEstimateMs, runsLeftMs, timeLeft } from '../../../src/engine/invocation-progress/forecast.ts'
import type { LedgerLine } from '../../../src/engine/invocation-progress/ledger.ts'
import { applyLine, newTally, runsPlannedSoFar, type Tally } from '../../../src/engine/invocation-progress/tally.ts'

const FILE = 'benchmarks/scaling.gpu.test.ts'

function tallyOf(lines: LedgerLine[]): Tally {
  const t = newTally()
  for (const line of lines) applyLine(t, line)
  return t
}

const plan = (measurement: string, arms: [string, number, number][], file = FILE): LedgerLine => ({
  type: 'plan',
  at: 0,
  file,
  measurement,
  arms: arms.map(([label, warmups, runs]) => ({ label, warmups, runs, minRuns: runs })),
})
const run = (
  measurement: string,
  arm: string,
  wallMs: number,
  more: Partial<Extract<LedgerLine, { type: 'run' }>> = {},
): LedgerLine => ({
  type: 'run',
  at: 0,
  file: FILE,
  measurement,
  arm,
  phase: 'run',
  n: 1,
  wallMs,
  exitClass: 'completed',
  reused: null,
  ...more,
})

describe('the forecast of what is left', () => {
  test('nothing measured yet: no forecast (it follows the first run), whatever is planned', () => {
    const t = tallyOf([plan('m', [['1 GPU, 1,000 seqs', 1, 3]])])
    expect(runsLeftMs(t, 0)).toBeNull()
    expect(timeLeft(t, 0, []).leftMs).toBeNull()
    expect(runsPlannedSoFar(t)).toBe(4)
  })

  test('each size by its own runs: a large size does not pull a small one up, nor the reverse', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1_000, max: 20_000 }), { minLength: 1, maxLength: 5 }),
        fc.array(fc.integer({ min: 100_000, max: 400_000 }), { minLength: 1, maxLength: 5 }),
        (small, large) => {
          const t = tallyOf([
            plan('m', [
              ['small', 0, 10],
              ['large', 0, 10],
            ]),
            ...small.map((ms) => run('m', 'small', ms)),
            ...large.map((ms) => run('m', 'large', ms)),
          ])
          const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
          const at = { file: FILE, measurement: 'm', phase: 'run' as const }
          expect(runEstimateMs(t, { ...at, arm: 'small' })).toBeCloseTo(mean(small))
          expect(runEstimateMs(t, { ...at, arm: 'large' })).toBeCloseTo(mean(large))
          const expected = (10 - small.length) * mean(small) + (10 - large.length) * mean(large)
          expect(runsLeftMs(t, 0)).toBeCloseTo(expected)
        },
      ),
    )
  })

  test('an arm not run yet goes by its measurement, its file, then any run; a warm-up by warm-ups first', () => {
    const t = tallyOf([
      plan('m', [
        ['a', 1, 2],
        ['b', 0, 2],
      ]),
      run('m', 'a', 10_000, { phase: 'warm-up' }),
      run('m', 'a', 4_000),
    ])
    expect(runEstimateMs(t, { file: FILE, measurement: 'm', arm: 'a', phase: 'run' })).toBe(4_000)
    expect(runEstimateMs(t, { file: FILE, measurement: 'm', arm: 'a', phase: 'warm-up' })).toBe(10_000)
    expect(runEstimateMs(t, { file: FILE, measurement: 'm', arm: 'b', phase: 'run' })).toBe(7_000)
    expect(runEstimateMs(t, { file: 'other.gpu.test.ts', measurement: 'x', arm: 'c', phase: 'run' })).toBe(7_000)
  })

  test('the time left never goes below zero, and is zero once every measurement stopped', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 60_000 })), { maxLength: 30 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        (runs, nowMs) => {
          const lines: LedgerLine[] = [
            plan('m', [
              ['a', 0, 4],
              ['b', 0, 4],
              ['c', 0, 4],
              ['d', 0, 4],
            ]),
          ]
          for (const [arm, wallMs] of runs) lines.push(run('m', 'abcd'[arm]!, wallMs))
          lines.push({ type: 'start', at: 0, file: FILE, measurement: 'm', arm: 'a', phase: 'run', n: 9 })
          const t = tallyOf(lines)
          expect(runsLeftMs(t, nowMs) ?? 0).toBeGreaterThanOrEqual(0)
          applyLine(t, { type: 'end', at: 0, file: FILE, measurement: 'm' })
          expect(runsLeftMs(t, nowMs)).toBe(0)
          expect(runsPlannedSoFar(t)).toBe(runs.length)
        },
      ),
    )
  })

  test('the run in flight counts what it has left of its estimate', () => {
    const t = tallyOf([
      plan('m', [['a', 0, 3]]),
      run('m', 'a', 60_000),
      { type: 'start', at: 1_000, file: FILE, measurement: 'm', arm: 'a', phase: 'run', n: 2 },
    ])
    expect(runsLeftMs(t, 1_000)).toBe(120_000)
    expect(runsLeftMs(t, 41_000)).toBe(80_000)
    expect(runsLeftMs(t, 500_000)).toBe(60_000)
  })

  test('a run kept by an earlier invocation is data for the forecast; a run shared within this one is not counted twice', () => {
    const t = tallyOf([
      plan('m', [['a', 0, 3]]),
      run('m', 'a', 30_000, { reused: 'earlier' }),
      plan('s', [['a', 0, 3]]),
      run('s', 'a', 999_999, { reused: 'shared' }),
    ])
    expect(t.measured).toBe(0)
    expect(t.reused).toEqual({ earlier: 1, shared: 1 })
    expect(runEstimateMs(t, { file: FILE, measurement: 'm', arm: 'a', phase: 'run' })).toBe(30_000)
  })

  test('a run that does not complete ends its arm: its runs left leave the plan', () => {
    const t = tallyOf([
      plan('m', [
        ['a', 0, 3],
        ['b', 0, 3],
      ]),
      run('m', 'a', 5_000, { exitClass: 'oom' }),
      run('m', 'b', 5_000),
    ])
    expect(runsPlannedSoFar(t)).toBe(2 + 2)
    expect(runsLeftMs(t, 0)).toBe(10_000)
  })

  test('files not started add their earlier forecast, or make the time left a lower bound', () => {
    const t = tallyOf([plan('m', [['a', 0, 2]]), run('m', 'a', 10_000)])
    expect(timeLeft(t, 0, [{ file: 'x', forecastMs: 50_000 }])).toEqual({ leftMs: 60_000, atLeast: false })
    expect(timeLeft(t, 0, [{ file: 'y', forecastMs: null }])).toEqual({ leftMs: 10_000, atLeast: true })
  })
})

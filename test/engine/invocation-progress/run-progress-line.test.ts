import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  type InvocationStatus,
  measurementPlanLine,
  reusedLine,
  runLine,
  spanText,
  statusText,
  suiteName,
  waitingLine,
} from '../../../src/engine/invocation-progress/run-progress-line.ts'

const ms = fc.integer({ min: 0, max: 48 * 3_600_000 })
const status = fc.record({
  elapsedMs: ms,
  left: fc.record({ leftMs: fc.option(ms, { nil: null }), atLeast: fc.boolean() }),
  measured: fc.nat({ max: 10_000 }),
  planned: fc.nat({ max: 10_000 }),
  reused: fc.nat({ max: 1_000 }),
  filesNotStarted: fc.nat({ max: 20 }),
}) satisfies fc.Arbitrary<InvocationStatus>
const position = fc.record({
  suite: fc.string(),
  arm: fc.string(),
  phase: fc.constantFrom('warm-up' as const, 'run' as const),
  n: fc.integer({ min: 1, max: 100 }),
  of: fc.integer({ min: 1, max: 100 }),
  upTo: fc.boolean(),
})
// The shape a log reader greps: one line, the prefix, run n of m, the wall time, elapsed and what is left.
const RUN_LINE =
  /^\[run\] .* > .*: (warm-up|run) \d+ of (up to )?\d+, \d+\.\d s(, ended .+)?; invocation .+ elapsed, (about .+ left.*|time left known after the first run) \(\d+ of \d+ runs planned so far, warm-ups included.*\)$/

describe('the progress lines', () => {
  test('a run line is one plain line of the fixed shape, whatever the labels hold', () => {
    fc.assert(
      fc.property(position, ms, fc.constantFrom('completed', 'oom', 'crash\n'), status, (p, wallMs, exitClass, s) => {
        const line = runLine(p, { wallMs, exitClass }, s)
        expect([...line].every((c) => c >= ' ' && c !== '\u007f')).toBe(true)
        expect(line).toMatch(RUN_LINE)
        expect(line).toContain(`${p.phase} ${p.n} of ${p.upTo ? 'up to ' : ''}${p.of}, ${(wallMs / 1000).toFixed(1)} s`)
      }),
    )
  })

  test('the status says elapsed, the time left (or that it follows the first run) and the runs planned so far', () => {
    fc.assert(
      fc.property(status, (s) => {
        const text = statusText(s)
        expect(text.startsWith(`invocation ${spanText(s.elapsedMs)} elapsed, `)).toBe(true)
        if (s.left.leftMs === null) expect(text).toContain('time left known after the first run')
        else expect(text).toContain(`about ${spanText(s.left.leftMs)} left`)
        expect(text).toContain(`${s.measured} of ${s.planned} runs planned so far, warm-ups included`)
        expect(text.includes('more for the files not started')).toBe(s.left.leftMs !== null && s.left.atLeast)
        expect(text.includes('reused')).toBe(s.reused > 0)
        expect(text.includes('not started)') || text.includes('not started;')).toBe(s.filesNotStarted > 0)
      }),
    )
  })

  test('spans read as a person plans: seconds, then minutes and seconds, then hours and minutes', () => {
    expect(spanText(0)).toBe('0 s')
    expect(spanText(59_400)).toBe('59 s')
    expect(spanText(190_000)).toBe('3 min 10 s')
    expect(spanText(3_600_000 + 5 * 60_000)).toBe('1 h 5 min')
    fc.assert(
      fc.property(ms, (t) => {
        expect(spanText(t)).toMatch(/^(\d+ s|\d+ min \d+ s|\d+ h \d+ min)$/)
      }),
    )
  })

  test('runs given back by the journal are said as reused or shared, never as a run n of m', () => {
    fc.assert(
      fc.property(
        fc.record({ suite: fc.string(), arm: fc.string() }),
        fc.record({
          warmups: fc.nat({ max: 3 }),
          runs: fc.integer({ min: 1, max: 20 }),
          from: fc.constantFrom('earlier' as const, 'shared' as const),
        }),
        status,
        (at, given, s) => {
          const line = reusedLine(at, given, s)
          expect(line.startsWith('[run] ')).toBe(true)
          expect(line).not.toMatch(RUN_LINE)
          expect(line).toContain(given.from === 'earlier' ? 'reused, not measured again' : 'shared with an earlier')
          expect(line).toContain(`${given.runs} run${given.runs === 1 ? '' : 's'}`)
        },
      ),
    )
  })

  test('a plan line counts every run still to measure and names the configurations (four, then how many more)', () => {
    const s: InvocationStatus = {
      elapsedMs: 0,
      left: { leftMs: null, atLeast: false },
      measured: 0,
      planned: 14,
      reused: 0,
      filesNotStarted: 1,
    }
    const arms = Array.from({ length: 5 }, (_, i) => ({
      label: `${i + 1} GPU`,
      warmups: i === 0 ? 1 : 0,
      runs: 3,
      upTo: false,
    }))
    expect(measurementPlanLine('scaling', arms, s)).toBe(
      '[plan] scaling: 16 runs to measure (1 GPU: 1 warm-up + 3 runs; 2 GPU: 3 runs; 3 GPU: 3 runs; 4 GPU: 3 runs, and 1 more configuration); invocation 0 s elapsed, time left known after the first run (0 of 14 runs planned so far, warm-ups included; 1 file not started)',
    )
  })

  test('a wait says the run in flight and for how long, or that none is', () => {
    const s: InvocationStatus = {
      elapsedMs: 600_000,
      left: { leftMs: 60_000, atLeast: false },
      measured: 3,
      planned: 4,
      reused: 0,
      filesNotStarted: 0,
    }
    const run = {
      suite: 'e2e',
      arm: '1 GPU',
      phase: 'run' as const,
      n: 2,
      of: 2,
      upTo: false,
      forMs: 50_000,
      estimateMs: 80_000,
    }
    expect(waitingLine({ suite: 'e2e', run }, s)).toBe(
      '[running] e2e > 1 GPU: run 2 of 2 running for 50 s (about 1 min 20 s a run here); invocation 10 min 0 s elapsed, about 1 min 0 s left (3 of 4 runs planned so far, warm-ups included)',
    )
    expect(waitingLine({ suite: 'e2e', run: null }, s)).toMatch(/^\[running\] e2e: no run in flight/)
  })

  test('a suite is named by its file the way a person names it', () => {
    expect(suiteName('benchmarks/e2e.gpu.test.ts')).toBe('e2e')
    expect(suiteName('benchmarks/stage-throughput.gpu.test.ts')).toBe('stage-throughput')
    expect(suiteName('benchmarks/validation/capacity/capacity.gpu.test.ts')).toBe('validation/capacity')
    expect(suiteName('benchmarks/validation/single-gpu/clean-accuracy.gpu.test.ts')).toBe(
      'validation/single-gpu/clean-accuracy',
    )
    expect(suiteName('benchmarks/capacity.gpu.bench.ts')).toBe('capacity (bench)')
  })
})

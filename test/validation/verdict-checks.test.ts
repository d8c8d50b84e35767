import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { judgeAtLeast } from '../../src/engine/verdict.ts'
import { createRandomSource, speedup } from '../../src/measure/index.ts'
import {
  checkRate,
  expectedAtLeastVerdict,
  expectedSpeedupVerdict,
  gpuOfWorker,
  parseBand,
  speedupConsistency,
} from '../../src/validation/verdict-checks.ts'

const times = fc.array(fc.double({ min: 100, max: 100_000, noNaN: true }), { minLength: 3, maxLength: 8 })

describe('checkRate', () => {
  test('within exactly when the relative error is at most the tolerance', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e4, noNaN: true }),
        fc.double({ min: 1, max: 1e4, noNaN: true }),
        (e, p) => {
          const r = checkRate(e, p, 0.2)
          expect(r.state).toBe(Math.abs(e - p) <= 0.2 * p ? 'within' : 'outside')
        },
      ),
    )
  })

  test('a missing estimate is missing, not outside', () => {
    expect(checkRate(null, 512, 0.2).state).toBe('missing')
  })

  test('a non-positive planted rate is refused with its value', () => {
    expect(() => checkRate(1, 0, 0.2)).toThrow(/planted rate must be > 0, got 0/)
  })
})

describe('expectedSpeedupVerdict', () => {
  test('agrees with src/measure speedup() on random repeated times', () => {
    fc.assert(
      fc.property(times, times, fc.integer({ min: 1, max: 1_000 }), (a, b, seed) => {
        const random = createRandomSource(`seed-${seed}`)
        const r = speedup(a, b, 2, { band: { low: 1.6, high: 2 }, resamples: 200, random })
        expect(expectedSpeedupVerdict(r.speedup.estimate, r.speedup.ci, { low: 1.6, high: 2 })).toBe(r.verdict)
      }),
      { numRuns: 50 },
    )
  })

  test('no CI is inconclusive whatever the estimate', () => {
    expect(expectedSpeedupVerdict(1.9, null, { low: 1.6, high: 2 })).toBe('inconclusive')
  })
})

describe('parseBand and speedupConsistency', () => {
  test('parses the band text the scaling verdicts print', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 80 }), fc.integer({ min: 0, max: 80 }), (lo, extra) => {
        const low = lo / 10
        const high = (lo + extra) / 10
        expect(parseBand(`${low}x-${high}x`)).toEqual({ low, high })
      }),
    )
    expect(parseBand('>= 80%')).toBeNull()
  })

  test('flags a verdict that contradicts its own CI', () => {
    const v = {
      id: 'scaling/2/total',
      title: 't',
      verdict: 'pass' as const,
      value: 1.3,
      unit: 'x',
      ci: { low: 1.2, high: 1.4, level: 0.95 },
      threshold: '1.6x-2x',
      detail: '',
      stage: null,
      gpu: null,
    }
    expect(speedupConsistency(v)).toMatchObject({ consistent: false, expected: 'fail' })
    expect(speedupConsistency({ ...v, verdict: 'fail' }).consistent).toBe(true)
  })

  test('no estimate (nothing measured on a side) calls for error: a fail or inconclusive there is inconsistent', () => {
    const none = {
      id: 'scaling/2/total',
      title: 't',
      verdict: 'fail' as const,
      value: null,
      unit: null,
      ci: null,
      threshold: null,
      detail: 'completed measured runs: 1 GPU 0, 2 GPUs 0',
      stage: null,
      gpu: null,
    }
    expect(speedupConsistency(none)).toMatchObject({ consistent: false, expected: 'error' })
    expect(speedupConsistency({ ...none, verdict: 'inconclusive' }).consistent).toBe(false)
    expect(speedupConsistency({ ...none, verdict: 'error' }).consistent).toBe(true)
  })
})

describe('expectedAtLeastVerdict', () => {
  test('agrees with the suites judgeAtLeast wherever a value exists', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.option(fc.tuple(fc.double({ min: 0, max: 100, noNaN: true }), fc.double({ min: 0, max: 100, noNaN: true }))),
        (value, pair) => {
          const ci = pair ? { low: Math.min(...pair), high: Math.max(...pair) } : null
          expect(expectedAtLeastVerdict(value, ci, 80)).toBe(judgeAtLeast(value, ci, 80))
        },
      ),
    )
  })
})

describe('gpuOfWorker', () => {
  test('worker r runs on the r-th GPU asked for', () => {
    expect(gpuOfWorker('worker 1', [2, 3])).toBe(3)
    expect(gpuOfWorker('worker 2', [2, 3])).toBeNull()
    expect(gpuOfWorker('gpu 0', [0])).toBeNull()
  })
})

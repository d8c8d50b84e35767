import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { workerBalance } from '../../src/measure/balance.ts'

describe('workerBalance', () => {
  test('flags a spread over 10% of the mean and names the slowest worker', () => {
    const r = workerBalance([
      { worker: 'gpu0', durationsMs: [1000, 1010, 990] },
      { worker: 'gpu1', durationsMs: [1200, 1190, 1210] },
    ])
    expect(r).toMatchObject({ verdict: 'flag', slowest: 'gpu1', minMs: 1000, maxMs: 1200 })
    expect(r.spread).toBeCloseTo(200 / 1100, 12)
    expect(r.imbalance).toBeCloseTo(1200 / 1100 - 1, 12)
  })

  test('passes a spread under the limit', () => {
    const r = workerBalance([
      { worker: 'gpu0', durationsMs: [1000] },
      { worker: 'gpu1', durationsMs: [1050] },
    ])
    expect(r.verdict).toBe('pass')
  })

  test('one worker is inconclusive', () => {
    expect(workerBalance([{ worker: 'gpu0', durationsMs: [5] }]).verdict).toBe('inconclusive')
  })

  test('spread is invariant to scaling all times and to worker order', () => {
    const times = fc.array(fc.integer({ min: 1, max: 1e6 }), { minLength: 2, maxLength: 8 })
    fc.assert(
      fc.property(times, fc.integer({ min: 1, max: 1000 }), (ms, c) => {
        const workers = ms.map((t, i) => ({ worker: `gpu${i}`, durationsMs: [t] }))
        const a = workerBalance(workers)
        const b = workerBalance([...workers].reverse().map((w) => ({ ...w, durationsMs: [w.durationsMs[0]! * c] })))
        expect(b.spread).toBeCloseTo(a.spread, 9)
        expect(b.verdict).toBe(a.verdict)
      }),
    )
  })
})

// Issue 56: v2.0 against v1.0 on the same GPUs, read from two capacity answers of their own, judged against VirNucPro's
// phase-10 claim (4.0x, target 4.5x). A known ratio comes back with an interval that holds it; a side without an
// interval gives no verdict; a side that is not FINAL is named.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { CapacityAnswer, GpuAnswer } from '../../src/capacity/answer.ts'
import { architectureLine, compareArchitectures, ratioOf } from '../../src/capacity/architecture-compare.ts'
import { DEFAULT_THRESHOLDS } from '../../src/config/thresholds.ts'

const gpu = (label: string, productionH: number, halfPct: number): GpuAnswer =>
  ({
    gpuCount: 1,
    label,
    architecture: null,
    typicalH: {
      value: productionH / 133,
      low: (productionH / 133) * (1 - halfPct),
      high: (productionH / 133) * (1 + halfPct),
    },
    productionH: { value: productionH, low: productionH * (1 - halfPct), high: productionH * (1 + halfPct) },
  }) as unknown as GpuAnswer

const answer = (g: GpuAnswer, statusText = 'FINAL'): CapacityAnswer =>
  ({ gpus: [g], typical: 45_000, production: 6_000_000, levelPct: 99.17, statusText }) as unknown as CapacityAnswer

describe('v2.0 against v1.0', () => {
  test('the v1.0 hours over the v2.0 hours at each target size, judged at 95% against 4.0x', () => {
    const compared = compareArchitectures(
      [
        { recordId: 'v2', answer: answer(gpu('1 GPU, v2.0', 5, 0.05)) },
        { recordId: 'v1', answer: answer(gpu('1 GPU, v1.0', 25, 0.05)) },
      ],
      DEFAULT_THRESHOLDS,
    )
    expect(compared.map((c) => c.sequences)).toEqual([45_000, 6_000_000])
    const at6M = compared[1]!
    expect(at6M.speedup!.value).toBeCloseTo(5)
    expect(at6M.speedup!.low).toBeGreaterThan(4)
    expect(at6M.state).toBe('pass')
    expect(architectureLine(at6M)).toMatch(
      /^v2\.0 against v1\.0 at 6 M on 1 GPU: 5\.00x \[4\.\d\d, 5\.\d\d\] against 4x \(target 4\.5x\): PASS$/,
    )
  })

  test('a side that is not FINAL is named; no pair, no comparison', () => {
    const compared = compareArchitectures(
      [
        { recordId: 'v2', answer: answer(gpu('1 GPU, v2.0', 8, 0.3)) },
        { recordId: 'v1', answer: answer(gpu('1 GPU, v1.0', 25, 0.3), 'UNCHECKED (no held-out run)') },
      ],
      DEFAULT_THRESHOLDS,
    )
    expect(compared[1]!.state).toBe('undecided')
    expect(architectureLine(compared[1]!)).toMatch(/\(read from the v1\.0 answer, UNCHECKED \(no held-out run\)\)$/)
    expect(
      compareArchitectures([{ recordId: 'v2', answer: answer(gpu('1 GPU, v2.0', 8, 0.1)) }], DEFAULT_THRESHOLDS),
    ).toEqual([])
  })

  test('an interval held at zero gives no interval, so no verdict', () => {
    const r = ratioOf({ value: 20, low: 0, high: 40 }, { value: 5, low: 4, high: 6 }, [0.95, 0.95])
    expect(r.figure).toEqual({ value: 4, low: null, high: null })
    expect(r.why).toMatch(/no interval above zero/)
  })

  test('property: the interval holds the ratio of the estimates, and widens as either side does', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.1, max: 100, noNaN: true }),
        fc.double({ min: 0.1, max: 100, noNaN: true }),
        fc.double({ min: 0.01, max: 0.5, noNaN: true }),
        (a, b, half) => {
          const f = (v: number, h: number) => ({ value: v, low: v * (1 - h), high: v * (1 + h) })
          const narrow = ratioOf(f(a, half / 2), f(b, half / 2), [0.95, 0.95]).figure!
          const wide = ratioOf(f(a, half), f(b, half / 2), [0.95, 0.95]).figure!
          expect(narrow.low!).toBeLessThanOrEqual(a / b)
          expect(narrow.high!).toBeGreaterThanOrEqual(a / b)
          expect(wide.high! - wide.low!).toBeGreaterThan(narrow.high! - narrow.low!)
        },
      ),
      { numRuns: 200 },
    )
  })
})

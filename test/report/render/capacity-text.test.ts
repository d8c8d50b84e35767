import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { fmtBreakEven, fmtWall } from '../../../src/report/render/capacity-text.ts'

describe('capacity figures in words', () => {
  test('wall times read in ms below 1 s, s below 2 min, min below 2 h, else h; the CI in the same unit', () => {
    expect(fmtWall({ value: 420.4, ci: { low: 399.6, high: 450 } })).toBe('420 ms [400, 450]')
    expect(fmtWall({ value: 40_301, ci: { low: 39_342, high: 41_303 } })).toBe('40.3 s [39.3, 41.3]')
    expect(fmtWall({ value: 157_320, ci: { low: 151_835, high: 163_258 } })).toBe('2.62 min [2.53, 2.72]')
    expect(fmtWall({ value: 20_067_167, ci: { low: 19_228_627, high: 20_971_743 } })).toBe('5.57 h [5.34, 5.83]')
    expect(fmtWall({ value: 167_000_000, ci: null })).toBe('46.4 h')
    expect(fmtWall(null)).toBe('n/a')
  })

  test('any wall time: its unit is one of ms, s, min, h and its number gives the value back within rounding', () => {
    fc.assert(
      fc.property(fc.double({ min: 1, max: 1e10, noNaN: true }), (ms) => {
        const [number, unit] = fmtWall({ value: ms, ci: null }).split(' ')
        const by = { ms: 1, s: 1_000, min: 60_000, h: 3_600_000 }[unit as 'ms' | 's' | 'min' | 'h']
        expect(by).toBeDefined()
        // Three significant digits, or whole ms: off by at most half the last digit.
        expect(Math.abs(Number(number) * by! - ms)).toBeLessThanOrEqual(Math.max(0.005 * ms, 0.5) * (1 + 1e-9))
      }),
    )
  })

  test('break-even: a size, "never", an open CI end, or 0 (faster from the start)', () => {
    expect(fmtBreakEven({ sequences: 3_200, ci: { low: 1_900, high: 5_100 } })).toBe('3,200 sequences [1,900, 5,100]')
    expect(fmtBreakEven({ sequences: 291, ci: { low: 91, high: null } })).toBe('291 sequences [91, never]')
    expect(fmtBreakEven({ sequences: null, ci: { low: null, high: null } })).toBe('never')
    expect(fmtBreakEven({ sequences: null, ci: { low: 900_000, high: null } })).toBe('never [900,000, never]')
    expect(fmtBreakEven({ sequences: 0, ci: { low: 0, high: 120 } })).toBe('0 sequences [0, 120]')
  })
})

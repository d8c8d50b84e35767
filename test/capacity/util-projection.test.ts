import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  heldMarginal,
  steadyVersusMarginal,
  utilDisagreement,
  utilTowardMarginal,
} from '../../src/capacity/util-projection.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'
import { h200RunDirs } from './support/gpu-capacity.ts'

const stat = (median: number, low: number, high: number) => ({
  median,
  n: 3,
  ci: { low, high, level: 0.75, coverage: 0.75, method: 'order statistic' },
})
const est = (estimate: number, low: number, high: number) => ({ estimate, ci: { low, high, level: 0.95 } })

describe('utilization projected toward the marginal busy share', () => {
  test('inside 0-100%, the measured share at the largest size, the marginal share as the stage grows, its CI around it', () => {
    const pct = fc.double({ min: 0, max: 100, noNaN: true })
    fc.assert(
      fc.property(pct, pct, fc.double({ min: 1e-9, max: 1, noNaN: true }), (measured, marginal, w) => {
        const at = (weight: number) =>
          utilTowardMarginal(
            est(measured, measured * 0.98, Math.min(100, measured * 1.02)),
            est(marginal, marginal * 0.97, Math.min(100, marginal * 1.03)),
            est(weight, weight * 0.9, Math.min(1, weight * 1.1)),
          )
        const u = at(w)
        expect(u.estimate).toBeGreaterThanOrEqual(0)
        expect(u.estimate).toBeLessThanOrEqual(100)
        expect(u.ci!.low).toBeLessThanOrEqual(u.estimate + 1e-9)
        expect(u.ci!.high).toBeGreaterThanOrEqual(u.estimate - 1e-9)
        expect(u.ci!.low).toBeGreaterThanOrEqual(0)
        expect(u.ci!.high).toBeLessThanOrEqual(100 + 1e-9)
        expect(at(1).estimate).toBeCloseTo(measured, 9)
        expect(at(1e-12).estimate).toBeCloseTo(marginal, 6)
      }),
    )
  })

  test('the marginal share held inside 0-100% and at the steady state; a measured share outside 0-100% clamped', () => {
    expect(heldMarginal(est(105, 103, 107), stat(86.7, 86, 87.5))).toEqual(est(86.7, 86, 87.5))
    expect(heldMarginal(est(105, 103, 107), null)).toEqual(est(100, 100, 100))
    expect(heldMarginal(est(-3, -5, 1), null)).toEqual(est(0, 0, 1))
    expect(heldMarginal(est(35.2, 34, 36), stat(68, 66, 70))).toEqual(est(35.2, 34, 36))
    expect(utilTowardMarginal(est(104, 103, 105), est(50, 50, 50), { estimate: 1, ci: null })).toEqual({
      estimate: 100,
      ci: null,
    })
  })

  test('the steady state and the marginal share: nothing where they meet, else which way they part', () => {
    expect(steadyVersusMarginal(stat(68, 66, 70), est(67, 65, 69))).toBeNull()
    expect(steadyVersusMarginal(stat(68, 66, 70), est(35.2, 34.1, 36.3))).toBe(
      'once at work the GPU is 68.0% [66.0, 70.0] busy, but across sizes each added ms of the stage is 35.2% [34.1, 36.3] busy: its idle time (before the first batch, between files or after the last) grows with the input, and the projection tends to the latter',
    )
    expect(steadyVersusMarginal(stat(86.7, 86, 87.5), est(105, 103, 107))).toMatch(
      /^across sizes the GPU-busy time grows 105\.0% \[103\.0, 107\.0\] as fast as the stage, above the 86\.7% .*: the projection is held at the steady state$/,
    )
  })

  test('the projection and the busy line at one size: said where their CIs do not meet', () => {
    const projected = est(96.6, 95.9, 96.8)
    expect(utilDisagreement(projected, est(100.4, 99.9, 100.7))).toBe(
      'the GPU-busy line reads 100.4% [99.9, 100.7] where the projection (held inside 0-100% and at the steady state) gives 96.6% [95.9, 96.8]: the busy time and the stage times disagree at this size',
    )
    expect(utilDisagreement(projected, est(96.7, 96, 97.5))).toBeNull()
  })

  // The reference pipeline's ESM-2 on 2 x H200 (issue 24's call G): the busy line alone read 100.0% [100.0, 100.0] at
  // 6 M on 2 GPUs (clipped from 105%), beside a steady state of 86.7%.
  test('on the records of 2 x H200: a busy line steeper than the stage is held at the steady state, and named', async () => {
    const root = tempDirUntilFileEnd('util-')
    const [g] = await h200RunDirs(root, ['g'])
    const out = join(root, 'refit.json')
    const ran = await execa(
      process.execPath,
      [join(import.meta.dirname, '../../src/cli.ts'), 'capacity', g!, '--json', out],
      {
        reject: false,
      },
    )
    expect(ran.exitCode, ran.stderr).toBe(0)
    const json = JSON.parse(readFileSync(out, 'utf8'))
    const two = json.configurations.find((c: { gpuCount: number }) => c.gpuCount === 2)
    const at6m = two.utilization.find(
      (u: { stage: string; sequences: number }) => u.stage === 'ESM-2 Feature Extraction' && u.sequences === 6_000_000,
    )
    expect(at6m.pct.estimate).toBeLessThan(90)
    expect(at6m.pct.high).toBeLessThanOrEqual(100)
    expect(at6m.busyModelPct.estimate).toBeGreaterThan(100)
    expect(at6m.disagreement).toMatch(/the projection is held at the steady state/)
    expect(at6m.disagreement).toMatch(/the GPU-busy line reads 10\d\.\d% .* where the projection .* gives 8\d\.\d%/)
  })
})

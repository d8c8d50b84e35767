import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { outOfRange, utilDisagreement, utilFromSteady } from '../../src/capacity/util-projection.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'
import { h200RunDirs } from './support/gpu-capacity.ts'

const stat = (median: number, low: number, high: number) => ({
  median,
  n: 3,
  ci: { low, high, level: 0.75, coverage: 0.75, method: 'order statistic' },
})

describe('utilization projected from the steady state', () => {
  test('tends to the steady state as the stage grows, never above it nor below 0, its CI around it', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 60_000, noNaN: true }),
        fc.double({ min: 1, max: 1e9, noNaN: true }),
        (steady, startup, stageMs) => {
          const s = stat(steady, steady * 0.98, Math.min(100, steady * 1.01))
          const u = utilFromSteady(s, stat(startup, startup * 0.9, startup * 1.1), {
            estimate: stageMs,
            ci: { low: stageMs * 0.95, high: stageMs * 1.05, level: 0.95 },
          })!
          expect(u.estimate).toBeGreaterThanOrEqual(0)
          expect(u.estimate).toBeLessThanOrEqual(steady + 1e-9)
          expect(u.ci!.low).toBeLessThanOrEqual(u.estimate + 1e-9)
          expect(u.ci!.high).toBeGreaterThanOrEqual(u.estimate - 1e-9)
          expect(u.ci!.high).toBeLessThanOrEqual(100 + 1e-9)
          const far = utilFromSteady(s, stat(startup, startup, startup), { estimate: 1e15, ci: null })!
          expect(far.estimate).toBeCloseTo(steady, 6)
        },
      ),
    )
  })

  test('without a steady state or start-up there is no such projection', () => {
    expect(utilFromSteady(null, stat(1, 1, 1), { estimate: 10, ci: null })).toBeNull()
    expect(utilFromSteady(stat(90, 89, 91), null, { estimate: 10, ci: null })).toBeNull()
  })

  test('two models whose CIs do not meet are said to disagree; a busy line outside 0-100% is said so', () => {
    const steady = { estimate: 96.6, ci: { low: 95.9, high: 96.8, level: 0.95 } }
    expect(utilDisagreement(steady, { estimate: 100.4, ci: { low: 99.9, high: 100.7, level: 0.95 } })).toBe(
      'the GPU-busy line reads 100.4% [99.9, 100.7] where the steady state gives 96.6% [95.9, 96.8]: the busy time and the stage times disagree at this size',
    )
    expect(utilDisagreement(steady, { estimate: 96.7, ci: { low: 96, high: 97.5, level: 0.95 } })).toBeNull()
    expect(outOfRange({ estimate: 104, ci: null })).toMatch(/outside 0-100%/)
    expect(outOfRange({ estimate: 99, ci: null })).toBeNull()
  })

  // The reference pipeline's ESM-2 on 2 x H200 (issue 24's call G): the busy line alone read 100.0% [100.0, 100.0] at
  // 6 M on 2 GPUs (clipped from 105%), beside a steady state of 86.7%.
  test('on the records of 2 x H200: the projection tends to the steady state and the clipped busy line is named', async () => {
    const root = tempDirUntilFileEnd('util-')
    const [g] = await h200RunDirs(root, ['g'])
    const out = join(root, 'refit.json')
    const ran = await execa(
      process.execPath,
      [join(import.meta.dirname, '../../../src/cli.ts'), 'capacity', g!, '--json', out],
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
    expect(at6m.disagreement).toMatch(/^the GPU-busy line reads 10\d\.\d% .* where the steady state gives 8\d\.\d%/)
  })
})

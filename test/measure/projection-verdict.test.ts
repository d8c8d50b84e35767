import { describe, expect, test } from 'vitest'
import { fitProjection, type ProgressEvent } from '../../src/measure/projection.ts'
import { DEFAULT_TARGET_MS, projectTo } from '../../src/measure/projection-verdict.ts'
import { seeded, standardNormal } from './support/simulate.ts'

/** 60 s fixed, then `msPerSequence` per sequence in batches of 100, 5% jitter. */
function model(msPerSequence: number) {
  const random = seeded(`verdict/${msPerSequence}`)
  const events: ProgressEvent[] = []
  let tMs = 60_000
  for (let i = 1; i <= 300; i++) {
    tMs += 100 * msPerSequence * (1 + 0.05 * standardNormal(random))
    events.push({ tMs, done: i * 100 })
  }
  return fitProjection(events, { resamples: 500 })
}

describe('projectTo', () => {
  test('projects fixed + M x time per sequence', () => {
    const m = model(5)
    const p = projectTo(m, { sequences: 45_000 })
    expect(p.projectedMs.estimate).toBeCloseTo(m.fit.fixedMs + 45_000 * m.fit.msPerSequence, 6)
    expect(p.projectedMs.ci.low).toBeLessThanOrEqual(p.projectedMs.estimate)
    expect(p.projectedMs.ci.high).toBeGreaterThanOrEqual(p.projectedMs.estimate)
  })

  test('at 7 ms a sequence, 45K sequences pass the 10 h target and 6M (11.7 h) fail it', () => {
    const m = model(7)
    expect(projectTo(m, { sequences: 45_000 })).toMatchObject({ verdict: 'pass', limitMs: DEFAULT_TARGET_MS * 1.1 })
    expect(projectTo(m, { sequences: 6_000_000 }).verdict).toBe('fail')
  })

  test('a CI straddling target x 1.1 is inconclusive', () => {
    const m = model(6.59)
    const p = projectTo(m, { sequences: 6_000_000 })
    // 60 s + 6M x 6.59 ms = 11.0 h, the limit: the CI straddles it.
    expect(p.projectedMs.ci.low).toBeLessThan(p.limitMs)
    expect(p.verdict).toBe('inconclusive')
  })

  test('rejects a non-positive sequence count', () => {
    expect(() => projectTo(model(5), { sequences: 0 })).toThrow(/sequences: must be positive, got 0/)
  })
})

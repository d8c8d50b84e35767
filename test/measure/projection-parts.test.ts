import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { fitPartsProjection, type PartScaling, type WallPart } from '../../src/measure/projection-parts.ts'
import { createRandomSource } from '../../src/measure/rng.ts'

const options = (seed: string) => ({ random: createRandomSource(seed), resamples: 200 })

/** Batches of 100 sequences at `msPerBatch` after a slower first batch. */
function progress(batches: number, msPerBatch: number): PartScaling {
  const events = Array.from({ length: batches }, (_, i) => ({ tMs: 200 + (i + 1) * msPerBatch, done: (i + 1) * 100 }))
  return { kind: 'progress', events }
}

const scaling = fc.oneof(
  fc.constant<PartScaling>({ kind: 'fixed' }),
  fc.constant<PartScaling>({ kind: 'proportional' }),
  fc
    .record({
      onsetMs: fc.double({ min: 0, max: 5_000, noNaN: true }),
      resolutionMs: fc.double({ min: 0, max: 200, noNaN: true }),
    })
    .map((o): PartScaling => ({ kind: 'onset', ...o })),
)
const parts = fc.array(
  fc.record({ name: fc.string(), durationMs: fc.double({ min: 0, max: 10_000, noNaN: true }), scaling }),
  { minLength: 1, maxLength: 10 },
)

describe('fitPartsProjection', () => {
  test('projecting to the run own size gives back its wall time', () => {
    fc.assert(
      fc.property(parts, fc.integer({ min: 1, max: 100_000 }), (ps, n) => {
        const model = fitPartsProjection(ps, n, options('own'))
        const wallMs = ps.reduce((a, p) => a + p.durationMs, 0)
        expect(model.fit.fixedMs + model.fit.msPerSequence * n).toBeCloseTo(wallMs, 6)
      }),
    )
  })

  test('every replicate also gives back the wall time at the run own size', () => {
    fc.assert(
      fc.property(parts, fc.integer({ min: 1, max: 100_000 }), (ps, n) => {
        const wallMs = ps.reduce((a, p) => a + p.durationMs, 0)
        for (const r of fitPartsProjection(ps, n, options('replicates')).replicates) {
          expect(r.fixedMs + r.msPerSequence * n).toBeCloseTo(wallMs, 6)
        }
      }),
    )
  })

  test('a fixed part does not grow and a proportional one grows with the input', () => {
    const ps: WallPart[] = [
      { name: 'start-up', durationMs: 3_000, scaling: { kind: 'fixed' } },
      { name: 'cpu', durationMs: 500, scaling: { kind: 'proportional' } },
    ]
    const model = fitPartsProjection(ps, 500, options('fixed'))
    expect(model.fit.fixedMs + model.fit.msPerSequence * 5_000).toBeCloseTo(3_000 + 5_000, 9)
  })

  test('an onset part is fixed up to its onset and proportional after it', () => {
    const ps: WallPart[] = [
      { name: 'gpu', durationMs: 1_200, scaling: { kind: 'onset', onsetMs: 900, resolutionMs: 0 } },
    ]
    const model = fitPartsProjection(ps, 500, options('onset'))
    expect(model.parts[0]).toMatchObject({ fixedMs: 900, msPerSequence: 300 / 500 })
  })

  test('onset replicates stay inside the sampling interval before the onset', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 100, max: 5_000, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        (onsetMs, resolutionMs) => {
          const ps: WallPart[] = [{ name: 'gpu', durationMs: 6_000, scaling: { kind: 'onset', onsetMs, resolutionMs } }]
          for (const r of fitPartsProjection(ps, 10, options('interval')).replicates) {
            expect(r.fixedMs).toBeGreaterThanOrEqual(onsetMs - resolutionMs - 1e-9)
            expect(r.fixedMs).toBeLessThanOrEqual(onsetMs + 1e-9)
          }
        },
      ),
    )
  })

  test('a progress part takes its slope from the steady batches and the rest of the part as fixed', () => {
    const ps: WallPart[] = [{ name: 'esm', durationMs: 5_000, scaling: progress(20, 300) }]
    const model = fitPartsProjection(ps, 2_000, options('progress'))
    expect(model.parts[0]!.msPerSequence).toBeCloseTo(3, 9)
    expect(model.parts[0]!.fixedMs).toBeCloseTo(5_000 - 3 * 2_000, 6)
    expect(model.eventsUsed).toBe(18)
  })

  test('a part sharded over workers is bounded by its slowest worker (share x slope), not the summed rate', () => {
    // Two workers over 2,000 sequences: worker 0 has 60% of the work at 3 ms per sequence of its shard, worker 1 40%
    // at 2 ms. Summed, 1,000 ms per 200 sequences done; the stage still waits for worker 0: 0.6 x 3 = 1.8 ms/sequence.
    const worker = (share: number, msPerSequence: number) => ({
      share,
      events: Array.from({ length: 20 }, (_, i) => ({ tMs: 150 + (i + 1) * 100 * msPerSequence, done: (i + 1) * 100 })),
    })
    const ps: WallPart[] = [
      { name: 'esm', durationMs: 4_000, scaling: { kind: 'workers', workers: [worker(0.6, 3), worker(0.4, 2)] } },
    ]
    const model = fitPartsProjection(ps, 2_000, options('workers'))
    expect(model.parts[0]!.msPerSequence).toBeCloseTo(1.8, 9)
    expect(model.parts[0]!.slowestWorker).toBe(0)
    expect(model.parts[0]!.fixedMs).toBeCloseTo(4_000 - 1.8 * 2_000, 6)
    // Every replicate is bounded by some worker's share x slope, and none is faster than the balanced ideal.
    for (const r of model.replicates) expect(r.msPerSequence).toBeGreaterThanOrEqual(0.6 * 3 - 1e-9)
  })

  test('balanced workers project as one series of the summed progress would', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 4 }), fc.double({ min: 0.5, max: 5, noNaN: true }), (k, ms) => {
        const events = Array.from({ length: 12 }, (_, i) => ({ tMs: (i + 1) * 100 * ms, done: (i + 1) * 100 }))
        const workers = Array.from({ length: k }, () => ({ share: 1 / k, events }))
        const model = fitPartsProjection(
          [{ name: 'esm', durationMs: 10_000, scaling: { kind: 'workers', workers } }],
          1_000,
        )
        expect(model.parts[0]!.msPerSequence).toBeCloseTo(ms / k, 9)
      }),
    )
  })

  test('refuses a sharded part without workers or with a share outside (0, 1]', () => {
    const bad = (workers: { share: number; events: [] }[]): WallPart[] => [
      { name: 'esm', durationMs: 1, scaling: { kind: 'workers', workers } },
    ]
    expect(() => fitPartsProjection(bad([]), 1)).toThrow(/part 'esm': workers need at least one/)
    expect(() => fitPartsProjection(bad([{ share: 0, events: [] }]), 1)).toThrow(/share in \(0, 1\]/)
  })

  test('refuses a negative duration naming the part', () => {
    const ps: WallPart[] = [{ name: 'cpu', durationMs: -1, scaling: { kind: 'fixed' } }]
    expect(() => fitPartsProjection(ps, 1)).toThrow(/part 'cpu': durationMs must be finite and >= 0, got -1/)
  })

  test('refuses a non-positive input count', () => {
    expect(() => fitPartsProjection([], 0)).toThrow(/inputSequences: must be > 0, got 0/)
  })
})

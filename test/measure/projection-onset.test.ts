import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { gpuOnsets, type OnsetRecord } from '../../src/measure/projection-onset.ts'

const stage = (tMs: number, name: string | null): OnsetRecord => ({ kind: 'stage', tMs, stage: name })
const sample = (tMs: number, name: string | null, utilPct: number | null, gpu = 0): OnsetRecord => ({
  kind: 'sample',
  tMs,
  gpu,
  stage: name,
  utilPct,
})

describe('gpuOnsets', () => {
  test('the first sample at >= 50% in the stage, with the gap to the sample before it', () => {
    const records = [
      sample(900, null, 0),
      stage(950, 'gpu'),
      sample(1000, 'gpu', 3),
      sample(1100, 'gpu', 49),
      sample(1200, 'gpu', 74),
      sample(1300, 'gpu', 100),
    ]
    expect(gpuOnsets(records, null).get('gpu')).toEqual({ onsetMs: 250, resolutionMs: 100 })
  })

  test('the gap starts no earlier than the stage start', () => {
    const records = [sample(900, null, 0), stage(950, 'gpu'), sample(1000, 'gpu', 80)]
    expect(gpuOnsets(records, null).get('gpu')).toEqual({ onsetMs: 50, resolutionMs: 50 })
  })

  test('a stage whose GPU never reaches the threshold has no onset', () => {
    const records = [stage(0, 'cpu'), sample(100, 'cpu', 10), sample(200, 'cpu', null), stage(250, null)]
    expect(gpuOnsets(records, null).has('cpu')).toBe(false)
  })

  test('ignores GPUs outside the given set', () => {
    const records = [stage(0, 'gpu'), sample(100, 'gpu', 100, 1), sample(200, 'gpu', 100, 0)]
    expect(gpuOnsets(records, [0]).get('gpu')?.onsetMs).toBe(200)
  })

  test('the onset is the first busy sample of the stage, whatever came before', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 50 }), (utils) => {
        const records = [stage(0, 's'), ...utils.map((u, i) => sample((i + 1) * 100, 's', u))]
        const first = utils.findIndex((u) => u >= 50)
        const onset = gpuOnsets(records, null).get('s')
        expect(onset?.onsetMs).toBe(first < 0 ? undefined : (first + 1) * 100)
      }),
    )
  })
})

import { describe, expect, test } from 'vitest'
import type { CapacityRun } from '../../src/capacity/runs.ts'
import { cpuStageParts, sharedParts, withSharedParts } from '../../src/capacity/shared.ts'
import { estimateFrom, valueAt } from '../../src/measure/index.ts'
import { fitSizeModel } from '../../src/measure/size-model.ts'

const GPU_STAGES = ['DNABERT-S Feature Extraction', 'ESM-2 Feature Extraction']
const noise = [0, 60, -60]

function runs(label: string, translationMsPerSeq: number, shift: number): { label: string; runs: CapacityRun[] } {
  return {
    label,
    runs: [1_000, 4_000].flatMap((n) =>
      noise.map((e, i) => ({
        label,
        size: n,
        values: {
          wall: 0,
          'Six-Frame Translation': translationMsPerSeq * n + e * (i === 1 ? 2 : 1) + shift,
          'ESM-2 Feature Extraction': 1_000 + 2 * n,
          'steady: DNABERT-S Feature Extraction': 0.5 * n,
          'pre: DNABERT-S Feature Extraction': 900,
          'DNABERT-S Feature Extraction': 900 + 0.5 * n,
          'outside stages': 5_000,
        },
        startup: {},
        steady: {},
      })),
    ),
  }
}

describe('parts every configuration does alike', () => {
  test('the CPU stages are neither GPU stages nor split ones, nor the time outside stages', () => {
    const series = [
      'wall',
      'Six-Frame Translation',
      'ESM-2 Feature Extraction',
      'steady: DNABERT-S Feature Extraction',
      'pre: DNABERT-S Feature Extraction',
      'DNABERT-S Feature Extraction',
      'outside stages',
      'busy: ESM-2 Feature Extraction',
    ]
    expect(cpuStageParts(series, GPU_STAGES)).toEqual(['Six-Frame Translation'])
  })

  test("a CPU stage split by its own bar shares its steady part; its start-up stays each configuration's own", () => {
    const series = [
      'wall',
      'Six-Frame Translation',
      'steady: Six-Frame Translation',
      'pre: Six-Frame Translation',
      'Sequence Chunking',
      'ESM-2 Feature Extraction',
      'steady: ESM-2 Feature Extraction',
      'pre: ESM-2 Feature Extraction',
    ]
    expect(cpuStageParts(series, GPU_STAGES)).toEqual(['steady: Six-Frame Translation', 'Sequence Chunking'])
  })

  test('configurations that agree share one fit over all their runs; its draws are the same in both models', () => {
    const shared = sharedParts([runs('1 GPU', 0.25, 0), runs('2 GPUs', 0.25, 30)], GPU_STAGES, 's')
    expect(shared.series).toEqual(['Six-Frame Translation'])
    expect(shared.checks[0]!.shared).toBe(true)
    const own = fitSizeModel(runs('2 GPUs', 0.25, 30).runs, { series: ['Six-Frame Translation'], nonNegative: true })
    const merged = withSharedParts(own, shared)
    expect(merged.draws!['Six-Frame Translation']).toBe(shared.model!.draws!['Six-Frame Translation'])
    // Twice the runs: the pooled per-sequence CI is no wider than one configuration's own.
    const width = (m: typeof own) => {
      const e = estimateFrom([m], (line) => valueAt(line('Six-Frame Translation'), 6e6))
      return e.ci!.high - e.ci!.low
    }
    expect(width(merged)).toBeLessThanOrEqual(width(own))
  })

  test('configurations that disagree keep their own fits, and the check says why', () => {
    const shared = sharedParts([runs('1 GPU', 0.25, 0), runs('2 GPUs', 0.6, 0)], GPU_STAGES, 's')
    expect(shared.series).toEqual([])
    expect(shared.checks[0]).toMatchObject({ name: 'Six-Frame Translation', shared: false })
    expect(shared.checks[0]!.why).toMatch(/disagree/)
  })

  test('one configuration has nothing to share', () => {
    expect(sharedParts([runs('1 GPU', 0.25, 0)], GPU_STAGES, 's')).toEqual({ model: null, series: [], checks: [] })
  })
})

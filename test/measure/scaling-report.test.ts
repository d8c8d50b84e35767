import { describe, expect, test } from 'vitest'
import { scalingReport } from '../../src/measure/scaling-report.ts'

const around = (value: number) => [0.99, 1.0, 1.01, 0.995, 1.005].map((f) => f * value)

describe('scalingReport', () => {
  const input = {
    gpuCount: 2,
    total: { singleGpuMs: around(3200), multiGpuMs: around(1800) },
    stages: {
      'DNABERT-S Feature Extraction': { singleGpuMs: around(500), multiGpuMs: around(520) },
      'ESM-2 Feature Extraction': { singleGpuMs: around(2600), multiGpuMs: around(1390) },
    },
  }

  test('judges total, stages, and PERF-03 (ESM-2 >= 1.9x on 2 GPUs)', () => {
    const report = scalingReport(input)
    expect(report.total.verdict).toBe('pass')
    expect(report.stages['DNABERT-S Feature Extraction']!.verdict).toBe('fail')
    expect(report.stages['ESM-2 Feature Extraction']!.verdict).toBe('pass')
    expect(report.perf03).toMatchObject({ band: { low: 1.9, high: 2 } })
    expect(report.perf03!.speedup.estimate).toBeCloseTo(2600 / 1390, 9)
    expect(report.perf03!.verdict).toBe('fail')
  })

  test('PERF-03 is null on other GPU counts', () => {
    expect(scalingReport({ ...input, gpuCount: 4 }).perf03).toBeNull()
  })

  test('a stage band override of null leaves that stage unjudged', () => {
    const report = scalingReport(input, { stageBands: { 'DNABERT-S Feature Extraction': null } })
    expect(report.stages['DNABERT-S Feature Extraction']!.verdict).toBe('inconclusive')
  })
})

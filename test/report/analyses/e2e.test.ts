import { expect, test } from 'vitest'
import { analyzeE2e } from '../../../src/report/analyses/e2e.ts'
import { sampleResultRecord, sampleRunRecord } from '../../support/result-records.ts'

const projected = (sequences: number, estimate: number) => ({
  sequences,
  projectedMs: { estimate, ci: { low: estimate * 0.9, high: estimate * 1.1, level: 0.95 } },
  targetMs: 36_000_000,
  tolerance: 0.1,
  limitMs: 39_600_000,
  verdict: 'pass' as const,
  reason: 'under the limit',
})

test('the report shows the projection the e2e suite stored, for the group it projected, and invents none', () => {
  const run = (setup: string) => ({
    label: `${setup} run 1`,
    config: { setup },
    warmup: false,
    run: sampleRunRecord(),
    gpu: null,
  })
  const record = sampleResultRecord({
    id: 'e2e-typical',
    kind: 'e2e',
    runs: [run('1 GPU, typical'), run('1 GPU, large')],
    stats: {
      typical: {
        configuration: '1 GPU, typical',
        projection: {
          state: 'projected',
          projection: { projections: [projected(45_000, 158_000), projected(6e6, 2e7)] },
        },
      },
    },
  })
  const rows = analyzeE2e([record]).rows
  const typical = rows.find((r) => r.group === '1 GPU, typical')!
  expect(typical.projections).toEqual([
    {
      sequences: 45_000,
      projectedMs: 158_000,
      ci: { low: 142_200, high: 173_800 },
      limitMs: 39_600_000,
      verdict: 'pass',
    },
    { sequences: 6e6, projectedMs: 2e7, ci: { low: 1.8e7, high: 2.2e7 }, limitMs: 39_600_000, verdict: 'pass' },
  ])
  expect(rows.find((r) => r.group === '1 GPU, large')!.projections).toEqual([])
})

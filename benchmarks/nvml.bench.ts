/**
 * src/nvml's snapshot() of one GPU (utilization, memory, power, temperature, SM/memory clocks, clock-event reasons: 7
 * NVML calls) against the fake libnvidia-ml, so it measures the binding's own cost; benchmarks/nvml.gpu.bench.ts
 * measures it on a real GPU. Issue 4's target, printed beside the figures: < 50 us including the N-API crossing.
 * Pass/fail is a ratio measured in the run (issue 26): against the same seven reads through the addon's raw calls
 * (support/calibrations/nvml-reads.ts), in interleaved pairs; each test fails when its median ratio passes its limit.
 * Both arms cross into the same addon and library, so the ratio judges the TypeScript layer. Measured here
 * (support/ratio.ts) over 7 runs: batches 1.10-1.12 (CPU time) -> limit 1.3; single calls 1.16-1.18 (wall time: a
 * call is too short for the CPU clock) -> limit 1.4. A run with a planted 30% slowdown failed both: 1.45 and 1.56.
 * Run: npx vitest bench --project 'unit (bench)' benchmarks/nvml.bench.ts
 */
import { afterAll, expect, test } from 'vitest'
import { openNvml } from '../src/nvml/session.ts'
import { createFakeNvml } from '../test/support/fake-nvml.ts'
import { rawHandle, rawReadings } from './support/calibrations/nvml-reads.ts'
import { annotateRatio, expectWithinLimit, ratioBench } from './support/ratio-bench.ts'

const SNAPSHOT_BUDGET_US = 50
const BATCH = 1_000
const BATCH_LIMIT = 1.3
const SINGLE_LIMIT = 1.4

const fake = createFakeNvml({ devices: [{ name: 'NVIDIA H200', powerMw: [120_000, 130_000], utilGpuPct: [0, 100] }] })
fake.activate()
const opened = openNvml()
if (!opened.available) throw new Error(`fake NVML unavailable: ${opened.reason}`)
const device = opened.session.listDevices()[0]!
const handle = rawHandle(device.native, 0)

afterAll(() => {
  opened.session.close()
  fake.remove()
})

test(`snapshot() of one GPU on the fake library (issue 4: < ${SNAPSHOT_BUDGET_US} us)`, async ({ bench, annotate }) => {
  // 1,000 snapshots per measured call, so the harness's per-call cost does not count: ms per batch = us each.
  const result = await ratioBench(
    bench,
    {
      run: () => {
        for (let i = 0; i < BATCH; i++) device.snapshot()
      },
    },
    {
      run: () => {
        for (let i = 0; i < BATCH; i++) rawReadings(device.native, handle)
      },
    },
    {
      subjectName: `snapshot() x ${BATCH}, fake libnvidia-ml`,
      calibrationName: `7 raw addon reads x ${BATCH}, fake libnvidia-ml`,
      limit: BATCH_LIMIT,
      judgeOn: 'cpu',
      pairs: 200,
      warmupPairs: 20,
    },
  )
  const meanUs = (result.subjectMeanMs * 1000) / BATCH
  await annotateRatio(
    annotate,
    'nvml snapshot (fake)',
    result,
    `snapshot mean ${meanUs.toFixed(2)} us (issue 4: < ${SNAPSHOT_BUDGET_US} us), raw reads ${((result.calibrationMeanMs * 1000) / BATCH).toFixed(2)} us`,
  )
  expect(device.snapshot().state).toBe('ok')
  expectWithinLimit(result.judgement, 'nvml snapshot (fake)')
})

test('a single snapshot() per measured call, the harness overhead included', async ({ bench, annotate }) => {
  const result = await ratioBench(
    bench,
    { run: () => device.snapshot() },
    { run: () => rawReadings(device.native, handle) },
    {
      subjectName: 'snapshot() x 1, fake libnvidia-ml',
      calibrationName: '7 raw addon reads x 1, fake libnvidia-ml',
      limit: SINGLE_LIMIT,
      judgeOn: 'wall',
      pairs: 20_000,
      warmupPairs: 1_000,
    },
  )
  await annotateRatio(
    annotate,
    'nvml snapshot (fake, single)',
    result,
    `snapshot mean ${(result.subjectMeanMs * 1000).toFixed(2)} us (issue 4: < ${SNAPSHOT_BUDGET_US} us), raw reads ${(result.calibrationMeanMs * 1000).toFixed(2)} us`,
  )
  expectWithinLimit(result.judgement, 'nvml snapshot (fake, single)')
})

/**
 * Performance target of src/nvml (issue 4): one full `snapshot()` of one GPU (utilization, memory, power, temperature,
 * SM/memory clocks, clock-event reasons: 7 NVML calls) costs < 50 us including the N-API crossing. Here it runs
 * against the fake libnvidia-ml, so it measures the binding's own cost; benchmarks/nvml.gpu.bench.ts measures it
 * on a real GPU. Run: npx vitest bench --project 'unit (bench)' benchmarks/nvml.bench.ts
 */
import { afterAll, expect, test } from 'vitest'
import { openNvml } from '../src/nvml/session.ts'
import { createFakeNvml } from '../test/support/fake-nvml.ts'

const SNAPSHOT_BUDGET_US = 50
const BATCH = 1_000

const fake = createFakeNvml({ devices: [{ name: 'NVIDIA H200', powerMw: [120_000, 130_000], utilGpuPct: [0, 100] }] })
fake.activate()
const opened = openNvml()
if (!opened.available) throw new Error(`fake NVML unavailable: ${opened.reason}`)
const device = opened.session.listDevices()[0]!

afterAll(() => {
  opened.session.close()
  fake.remove()
})

test(`snapshot() of one GPU on the fake library < ${SNAPSHOT_BUDGET_US} us`, async ({ bench }) => {
  // 1,000 snapshots per timed iteration, so tinybench's per-iteration overhead does not count: ms per batch = us each.
  const result = await bench(`snapshot() x ${BATCH}, fake libnvidia-ml`, () => {
    for (let i = 0; i < BATCH; i++) device.snapshot()
  }).run({ iterations: 200, warmupIterations: 20, time: 0 })
  const meanUs = (result.latency.mean * 1000) / BATCH
  const p99Us = (result.latency.p99 * 1000) / BATCH
  console.log(
    `nvml snapshot (fake): mean ${meanUs.toFixed(2)} us, p99 of 1,000-batches ${p99Us.toFixed(2)} us per snapshot`,
  )
  expect(device.snapshot().state).toBe('ok')
  expect(meanUs).toBeLessThan(SNAPSHOT_BUDGET_US)
})

test('a single snapshot() per iteration, tinybench overhead included', async ({ bench }) => {
  const result = await bench('snapshot() x 1, fake libnvidia-ml', () => {
    device.snapshot()
  }).run({ iterations: 20_000, warmupIterations: 1_000, time: 0 })
  const meanUs = result.latency.mean * 1000
  console.log(
    `nvml snapshot (fake, single): mean ${meanUs.toFixed(2)} us, p99 ${(result.latency.p99 * 1000).toFixed(2)} us`,
  )
  expect(meanUs).toBeLessThan(SNAPSHOT_BUDGET_US)
})

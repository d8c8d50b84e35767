/**
 * Snapshot cost on a real GPU (issue 4 target: < 50 us for one full snapshot of one GPU, N-API crossing included;
 * raw NVML calls cost 2-6 us each on the H200). Energy is measured apart: ~4 ms a read, so not in the fast snapshot.
 * Run on the GPU machine: npx vitest bench --project 'gpu (bench)' benchmarks/nvml.gpu.bench.ts
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { NvmlDevice } from '../src/nvml/device.ts'
import { type NvmlSession, openNvml } from '../src/nvml/session.ts'
import { gpuAvailable } from './support/gpu.ts'

const SNAPSHOT_BUDGET_US = 50
const BATCH = 100

let session: NvmlSession | undefined
let device: NvmlDevice | undefined

beforeAll(() => {
  if (!gpuAvailable()) return
  const opened = openNvml()
  if (!opened.available) throw new Error(`NVML unavailable on a GPU machine: ${opened.reason}`)
  session = opened.session
  device = session.listDevices()[0]
})

afterAll(() => session?.close())

test(`snapshot() of GPU 0 < ${SNAPSHOT_BUDGET_US} us`, async ({ bench, annotate }) => {
  const target = device!
  const result = await bench(`snapshot() x ${BATCH}, GPU 0`, () => {
    for (let i = 0; i < BATCH; i++) target.snapshot()
  }).run({ iterations: 200, warmupIterations: 10, time: 0 })
  const meanUs = (result.latency.mean * 1000) / BATCH
  const p99Us = (result.latency.p99 * 1000) / BATCH
  const line = `nvml snapshot (GPU 0, ${target.identity().name}): mean ${meanUs.toFixed(2)} us, p99 of ${BATCH}-batches ${p99Us.toFixed(2)} us per snapshot`
  console.log(line)
  await annotate(line)
  expect(target.snapshot().state).toBe('ok')
  expect(meanUs).toBeLessThan(SNAPSHOT_BUDGET_US)
})

test('total energy read (kept out of the fast snapshot)', async ({ bench, annotate }) => {
  const target = device!
  const result = await bench('energyMj(), GPU 0', () => {
    target.energyMj()
  }).run({ iterations: 30, warmupIterations: 3, time: 0 })
  const line = `nvml energy read (GPU 0): mean ${result.latency.mean.toFixed(3)} ms, p99 ${result.latency.p99.toFixed(3)} ms`
  console.log(line)
  await annotate(line)
  expect(target.energyMj()).toBeGreaterThan(0)
})

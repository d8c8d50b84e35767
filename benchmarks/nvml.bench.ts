/**
 * src/nvml's snapshot() of one GPU (utilization, memory, power, temperature, SM/memory clocks, clock-event reasons: 7
 * NVML calls) against the fake libnvidia-ml, so it measures the binding's own cost; benchmarks/nvml.gpu.bench.ts
 * measures it on a real GPU. Issue 4's target, printed beside the figures: < 50 us including the N-API crossing.
 * Each test runs in interleaved pairs with the same seven reads through the addon's raw calls
 * (support/calibrations/nvml-reads.ts): both arms cross into the same addon and library, so their ratio reads the
 * TypeScript layer's share. Each fails when it is slower than this machine's measurements say it was
 * (support/judgement.ts: its saved baseline, or `--against REV`'s binding, its own addon build).
 * Run: npx vitest bench --project 'unit (bench)' benchmarks/nvml.bench.ts
 */
import { afterAll, expect, test } from 'vitest'
import { type NvmlSession, openNvml } from '../src/nvml/session.ts'
import { createFakeNvml } from '../test/support/fake-nvml.ts'
import { importFrom, THIS_CHECKOUT } from './support/against/checkout.ts'
import { rawHandle, rawReadings } from './support/calibrations/nvml-reads.ts'
import { expectNoRegression } from './support/judgement.ts'
import { annotateRatio, ratioBench, type SubjectArm } from './support/ratio-bench.ts'

type Session = typeof import('../src/nvml/session.ts')

const SNAPSHOT_BUDGET_US = 50
const BATCH = 1_000

const fake = createFakeNvml({ devices: [{ name: 'NVIDIA H200', powerMw: [120_000, 130_000], utilGpuPct: [0, 100] }] })
fake.activate()
const opened = openNvml()
if (!opened.available) throw new Error(`fake NVML unavailable: ${opened.reason}`)
const device = opened.session.listDevices()[0]!
const handle = rawHandle(device.native, 0)
/** The other revision's sessions (under --against): its own binding and addon over the same fake library. */
const otherSessions: NvmlSession[] = []

afterAll(() => {
  for (const session of otherSessions) session.close()
  opened.session.close()
  fake.remove()
})

/** GPU 0 as a checkout's binding sees it: this checkout's open session, or one opened through the other's. */
async function deviceOf(checkout: string): Promise<typeof device> {
  if (checkout === THIS_CHECKOUT) return device
  const other = (await importFrom<Session>(checkout, 'src/nvml/session.ts')).openNvml()
  if (!other.available) throw new Error(`fake NVML unavailable through ${checkout}: ${other.reason}`)
  otherSessions.push(other.session as NvmlSession)
  return other.session.listDevices()[0]! as typeof device
}

/** `calls` snapshots per measured call. */
const snapshots =
  (calls: number): SubjectArm =>
  async (checkout) => {
    const gpu = await deviceOf(checkout)
    if (calls === 1) return { run: () => gpu.snapshot() }
    return {
      run: () => {
        for (let i = 0; i < calls; i++) gpu.snapshot()
      },
    }
  }

test(`snapshot() of one GPU on the fake library (issue 4: < ${SNAPSHOT_BUDGET_US} us)`, async ({ bench, annotate }) => {
  // 1,000 snapshots per measured call, so the harness's per-call cost does not count: ms per batch = us each.
  const result = await ratioBench(
    bench,
    snapshots(BATCH),
    {
      run: () => {
        for (let i = 0; i < BATCH; i++) rawReadings(device.native, handle)
      },
    },
    {
      subjectName: `snapshot() x ${BATCH}, fake libnvidia-ml`,
      calibrationName: `7 raw addon reads x ${BATCH}, fake libnvidia-ml`,
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
  expectNoRegression(result.judgement, 'nvml snapshot (fake)')
})

test('a single snapshot() per measured call, the harness overhead included', async ({ bench, annotate }) => {
  const result = await ratioBench(
    bench,
    snapshots(1),
    { run: () => rawReadings(device.native, handle) },
    {
      subjectName: 'snapshot() x 1, fake libnvidia-ml',
      calibrationName: '7 raw addon reads x 1, fake libnvidia-ml',
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
  expectNoRegression(result.judgement, 'nvml snapshot (fake, single)')
})

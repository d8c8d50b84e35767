/**
 * The target runner on a GPU host (issue 7): where the work really ran (NVML per-process memory), the --gpus mismatch
 * flag on the reference pipeline's `misplace` fault, and no GPU memory left held by a run's PIDs after a timeout.
 * Run on the GPU machine:  npx vitest run --project gpu benchmarks/runner.gpu.test.ts
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { NvmlDevice } from '../src/nvml/device.ts'
import { type NvmlSession, openNvml } from '../src/nvml/session.ts'
import { referenceProfile } from '../src/pipeline/profiles.ts'
import type { GpuMemoryHeld } from '../src/pipeline/run-record.ts'
import { type RunTargetOptions, runTarget } from '../src/pipeline/runner.ts'
import { gpuAvailable } from './support/gpu.ts'

let session: NvmlSession | undefined
let devices: NvmlDevice[] = []
let dir = ''

beforeAll(async () => {
  if (!gpuAvailable()) return
  const opened = openNvml()
  if (!opened.available) throw new Error(`NVML unavailable on a GPU machine: ${opened.reason}`)
  session = opened.session
  devices = session.listDevices()
  dir = await mkdtemp(join(tmpdir(), 'runner-gpu-'))
  const gene = 'ATGAAACCCGGGTTTAAACCCGGG'.repeat(40)
  await writeFile(join(dir, 'in.fa'), Array.from({ length: 64 }, (_, i) => `>s${i}\n${gene}\n`).join(''))
})
afterAll(async () => {
  session?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

function heldBy(pids: number[]): GpuMemoryHeld[] {
  const wanted = new Set(pids)
  return devices.flatMap((d) =>
    (d.processes() ?? [])
      .filter((p) => wanted.has(p.pid))
      .map((p) => ({ pid: p.pid, memUsedBytes: p.usedGpuMemoryBytes ?? 0, gpu: d.index })),
  )
}

/** Samples NVML's process lists every 100 ms during the run: which GPU each PID used memory on. */
async function runWithAttribution(name: string, more: Partial<RunTargetOptions>) {
  const seen = new Map<number, Set<number>>()
  const sampler = setInterval(() => {
    for (const d of devices)
      for (const p of d.processes() ?? []) seen.set(p.pid, (seen.get(p.pid) ?? new Set()).add(d.index))
  }, 100)
  try {
    return await runTarget(referenceProfile, {
      input: join(dir, 'in.fa'),
      outputDir: join(dir, name),
      modelType: '300',
      // NVML numbers GPUs by PCI bus; make CUDA agree so --gpus and attribution speak of the same GPU.
      env: { CUDA_DEVICE_ORDER: 'PCI_BUS_ID' },
      gpusUsedBy: async (pids) => [...new Set(pids.flatMap((pid) => [...(seen.get(pid) ?? [])]))].sort(),
      gpuMemoryHeldBy: async (pids) => heldBy(pids),
      ...more,
      extraArgs: ['--model-scale', 'tiny', ...(more.extraArgs ?? [])],
    })
  } finally {
    clearInterval(sampler)
  }
}

describe('runTarget on GPUs (reference pipeline)', () => {
  test('preflight is ready with one GPU', async () => {
    expect(await referenceProfile.preflight(process.env, 1)).toMatchObject({ state: 'ready' })
  })

  test('a run on GPU 0 is attributed to GPU 0, with no mismatch and nothing held after exit', async () => {
    const record = await runWithAttribution('gpu0', { gpus: [0] })
    expect(record.exitClass).toBe('completed')
    expect(record.gpusUsed).toEqual([0])
    expect(record.gpuMismatch).toBe(false)
    expect(record.cleanup?.gpuCheck).toEqual({ state: 'clean' })
  })

  test('the misplace fault (work on a GPU not asked for) is flagged as a mismatch', async (context) => {
    if (devices.length < 2) context.skip('needs 2 GPUs')
    const record = await runWithAttribution('misplace', { gpus: [1], extraArgs: ['--inject', 'misplace'] })
    expect(record.gpusUsed).not.toEqual([1])
    expect(record.gpuMismatch).toBe(true)
  })

  test('a run hung in ESM-2 ends as timeout and its PIDs hold no GPU memory afterwards', async () => {
    const record = await runWithAttribution('hang', {
      gpus: [0],
      timeoutMs: 30_000,
      extraArgs: ['--inject', 'hang-at=Model Prediction'],
    })
    expect(record.exitClass).toBe('timeout')
    expect(record.gpusUsed).toContain(0)
    expect(record.cleanup).toMatchObject({ survivors: [], gpuCheck: { state: 'clean' } })
  })
})

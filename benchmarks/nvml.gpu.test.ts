/**
 * The NVML binding against the real driver (issue 4): our readings against `nvidia-smi --query-gpu` taken at the
 * same moment, and GPM metrics during a bf16 matmul load. Run on the GPU machine:
 *   npx vitest run --project gpu benchmarks/nvml.gpu.test.ts
 * Tolerances: names, UUIDs, PCI bus ids exact; total memory exact in nvidia-smi's unit (MiB); used memory within
 * 64 MiB; temperature within 2 C; power within 15% or 25 W of the nearer of the snapshots taken just before and after.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { DeviceSnapshot } from '../src/nvml/device.ts'
import { GpmSampler } from '../src/nvml/gpm.ts'
import { type NvmlSession, openNvml } from '../src/nvml/session.ts'
import { gpuAvailable } from './support/gpu.ts'

const MIB = 2 ** 20
const USED_TOLERANCE_BYTES = 64 * MIB
const TEMPERATURE_TOLERANCE_C = 2

let session: NvmlSession | undefined

beforeAll(() => {
  if (!gpuAvailable()) return
  const opened = openNvml()
  if (!opened.available) throw new Error(`NVML unavailable on a GPU machine: ${opened.reason}`)
  session = opened.session
})

afterAll(() => session?.close())

interface SmiRow {
  index: number
  name: string
  uuid: string
  pciBusId: string
  memTotalMib: number
  memUsedMib: number
  powerW: number
  temperatureC: number
}

function querySmi(): SmiRow[] {
  const fields = 'index,name,uuid,pci.bus_id,memory.total,memory.used,power.draw,temperature.gpu'
  const csv = execFileSync('nvidia-smi', [`--query-gpu=${fields}`, '--format=csv,noheader,nounits'], {
    encoding: 'utf8',
  })
  return csv
    .trim()
    .split('\n')
    .map((line) => {
      const [index, name, uuid, pciBusId, total, used, power, temperature] = line.split(',').map((cell) => cell.trim())
      return {
        index: Number(index),
        name: name!,
        uuid: uuid!,
        pciBusId: pciBusId!,
        memTotalMib: Number(total),
        memUsedMib: Number(used),
        powerW: Number(power),
        temperatureC: Number(temperature),
      }
    })
}

const okSnapshot = (snapshot: DeviceSnapshot) => {
  if (snapshot.state !== 'ok') throw new Error(`GPU ${snapshot.index} lost: ${snapshot.error.message}`)
  return snapshot
}

/** Distance from `value` to the closer of two readings (0 when it lies between them). */
function distance(value: number, a: number, b: number): number {
  return value < Math.min(a, b) ? Math.min(a, b) - value : value > Math.max(a, b) ? value - Math.max(a, b) : 0
}

describe('readings against nvidia-smi', () => {
  test('identity, memory, power and temperature of every GPU', async ({ annotate }) => {
    const devices = session!.listDevices()
    const before = devices.map((device) => okSnapshot(device.snapshot()))
    const smi = querySmi()
    const after = devices.map((device) => okSnapshot(device.snapshot()))
    expect(smi.length).toBe(devices.length)
    for (const [i, device] of devices.entries()) {
      const row = smi[i]!
      const identity = device.identity()
      const [b, a] = [before[i]!, after[i]!]
      await annotate(
        `GPU ${i}: ours ${identity.name} ${(identity.memTotalBytes / MIB).toFixed(0)} MiB, used ${((a.memUsedBytes ?? 0) / MIB).toFixed(0)} MiB, ` +
          `${((a.powerMw ?? 0) / 1000).toFixed(1)} W, ${a.temperatureC} C | nvidia-smi ${row.memTotalMib} MiB, used ${row.memUsedMib} MiB, ${row.powerW} W, ${row.temperatureC} C`,
      )
      expect([identity.name, identity.uuid]).toEqual([row.name, row.uuid])
      expect(identity.pciBusId.toUpperCase()).toBe(row.pciBusId.toUpperCase())
      expect([Math.floor(identity.memTotalBytes / MIB), Math.round(identity.memTotalBytes / MIB)]).toContain(
        row.memTotalMib,
      )
      // nvidia-smi versions differ on counting reserved memory as used: accept either reading.
      const usedCandidates = [b, a].flatMap((s) => [s.memUsedBytes!, s.memUsedBytes! + (s.memReservedBytes ?? 0)])
      const usedGap = Math.min(...usedCandidates.map((bytes) => Math.abs(bytes - row.memUsedMib * MIB)))
      expect(usedGap).toBeLessThanOrEqual(USED_TOLERANCE_BYTES)
      expect(distance(row.temperatureC, b.temperatureC!, a.temperatureC!)).toBeLessThanOrEqual(TEMPERATURE_TOLERANCE_C)
      const powerGapW = distance(row.powerW, b.powerMw! / 1000, a.powerMw! / 1000)
      expect(powerGapW).toBeLessThanOrEqual(Math.max(25, 0.15 * row.powerW))
    }
  })
})

const MATMUL = `
import sys, time, torch
a = torch.randn(8192, 8192, device='cuda', dtype=torch.bfloat16)
b = torch.randn(8192, 8192, device='cuda', dtype=torch.bfloat16)
for _ in range(3): a @ b
torch.cuda.synchronize(); print('ready', flush=True)
end = time.time() + float(sys.argv[1])
while time.time() < end:
    for _ in range(20): c = a @ b
    torch.cuda.synchronize()
`

function startMatmul(seconds: number): Promise<ChildProcess> {
  const child = spawn('python3', ['-c', MATMUL, String(seconds)], {
    env: { ...process.env, CUDA_VISIBLE_DEVICES: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`matmul load exited early (code ${code})`)))
    child.stdout!.on('data', (data: Buffer) => {
      if (data.toString().includes('ready')) resolve(child)
    })
  })
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('GPM under load', () => {
  test('SM, tensor and DRAM metrics read non-null during a bf16 matmul', { timeout: 60_000 }, async ({ annotate }) => {
    // CUDA_VISIBLE_DEVICES=0 is the first GPU in PCI order, NVML index 0 on a host without CUDA_DEVICE_ORDER set.
    const device = session!.listDevices()[0]!
    const energyBeforeMj = device.energyMj()
    const load = await startMatmul(20)
    try {
      const opened = GpmSampler.open(device)
      if (opened.state !== 'ready') throw new Error(opened.reason)
      const readings = []
      opened.sampler.sample()
      for (let i = 0; i < 4; i++) {
        await sleep(500)
        const reading = opened.sampler.sample()
        if (reading.state === 'completed') readings.push(reading)
      }
      const snapshot = okSnapshot(device.snapshot())
      const processes = device.processes()
      opened.sampler.close()
      const last = readings.at(-1)!
      await annotate(
        `GPM over ${last.intervalMs.toFixed(0)} ms: SM ${last.values.smUtilPct?.toFixed(1)}%, tensor ${last.values.anyTensorUtilPct?.toFixed(1)}%, ` +
          `DRAM ${last.values.dramBwUtilPct?.toFixed(1)}%; utilization ${snapshot.utilGpuPct}%, ${(snapshot.powerMw! / 1000).toFixed(0)} W, ` +
          `${processes?.length ?? 'n/a'} compute processes`,
      )
      expect(readings).toHaveLength(4)
      for (const reading of readings) {
        expect(reading.values.smUtilPct).not.toBeNull()
        expect(reading.values.anyTensorUtilPct).not.toBeNull()
        expect(reading.values.dramBwUtilPct).not.toBeNull()
      }
      expect(last.values.smUtilPct!).toBeGreaterThan(20)
      expect(last.values.anyTensorUtilPct!).toBeGreaterThan(10)
      expect(snapshot.utilGpuPct).toBeGreaterThan(50)
      expect(processes?.length).toBeGreaterThan(0)
      expect(device.energyMj()!).toBeGreaterThan(energyBeforeMj!)
    } finally {
      load.kill('SIGTERM')
    }
  })
})

/**
 * The calibration of the monitor's sampling thread: a plain sampling thread, started beside the monitor for the same
 * window so that both see the same machine at the same moment. On the same grid (tick k at k x intervalMs, sleeping
 * in Atomics.wait between ticks, as the monitor does), per tick: for every GPU the seven raw NVML reads
 * (nvml-reads.ts), a sample object with the monitor's fields, JSON.stringify, the lines written with one write(2).
 * No sampler core, stage tags, low-rate reads, energy, processes or GPM. Posts its CPU time per tick from 1 s after
 * its first tick (a fresh isolate compiles its tick code first, as the monitor's does), on the same clock as the
 * monitor's (the thread's: 4 ms ticks on the kernel measured here, so a 5 s window at 100 ms, ~40 ms of CPU, reads
 * to about 10%).
 */
import { closeSync, openSync, writeSync } from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'
import { openNvml } from '../../../src/nvml/session.ts'
import { rawHandle, rawReadings } from './nvml-reads.ts'

export interface PlainSamplerInput {
  intervalMs: number
  durationMs: number
  gpuCount: number
  logPath: string
}

export interface PlainSamplerResult {
  ticks: number
  /** CPU time (user + system) of this thread per tick from 1 s after the first tick, us. */
  steadyCpuPerTickUs: number
}

const WARMUP_MS = 1_000
const input = workerData as PlainSamplerInput
const opened = openNvml({ warn: () => {} })
if (!opened.available) throw new Error(`plain sampler: NVML unavailable: ${opened.reason}`)
const native = opened.session.listDevices()[0]!.native
const handles = Array.from({ length: input.gpuCount }, (_, i) => rawHandle(native, i))
const sleeper = new Int32Array(new SharedArrayBuffer(4))
const fd = openSync(input.logPath, 'a')
const cpuUs = () => {
  const cpu = process.threadCpuUsage()
  return cpu.user + cpu.system
}

const startMs = performance.now()
let steady: { tick: number; cpuUs: number } | null = null
let tick = 0
for (; performance.now() - startMs < input.durationMs; tick++) {
  if (!steady && performance.now() - startMs >= WARMUP_MS) steady = { tick, cpuUs: cpuUs() }
  const lines: string[] = []
  for (let gpu = 0; gpu < handles.length; gpu++)
    lines.push(
      JSON.stringify({
        kind: 'sample',
        tMs: performance.now() - startMs,
        gpu,
        stage: null,
        ...rawReadings(native, handles[gpu]!),
      }),
    )
  writeSync(fd, `${lines.join('\n')}\n`)
  const nextMs = (Math.floor((performance.now() - startMs) / input.intervalMs) + 1) * input.intervalMs
  Atomics.wait(sleeper, 0, 0, Math.max(0, nextMs - (performance.now() - startMs)))
}
closeSync(fd)
opened.session.close()
if (!steady || tick === steady.tick) throw new Error('plain sampler: window too short for a steady figure')
const result: PlainSamplerResult = { ticks: tick, steadyCpuPerTickUs: (cpuUs() - steady.cpuUs) / (tick - steady.tick) }
parentPort!.postMessage(result)

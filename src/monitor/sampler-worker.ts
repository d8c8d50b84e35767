/**
 * The sampling thread. It opens its own NVML session (init is ref-counted), writes the log itself (one writer), and
 * ticks on a fixed grid (tick k at k x intervalMs; a tick that overruns skips the slots it missed rather than
 * drifting). Running here keeps a busy main thread (a test, the runner parsing logs) from delaying samples.
 * Between ticks it sleeps in Atomics.wait, not on a timer: no event loop turn per tick, about half the CPU per wake
 * (measured here: 67 vs 144 us at 10 ms), and stop() wakes it at once through the shared stop slot.
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads'
import { openNvml } from '../nvml/session.ts'
import { JsonlWriter } from './jsonl-writer.ts'
import { type ControlMessage, elapsedMs, type FromWorker, STOP_SLOT, type WorkerInput } from './protocol.ts'
import { type EndRecord, type HostMemoryRecord, MONITOR_LOG_VERSION, type TargetRecord } from './records.ts'
import { SamplerCore } from './sampler.ts'
import type { StageChange } from './stage-timeline.ts'

const input = workerData as WorkerInput
const port = parentPort!
const post = (message: FromWorker) => port.postMessage(message)
const startNs = BigInt(input.startNs)
const clock = () => elapsedMs(startNs)

const stopSignal = new Int32Array(input.stopSignal)
// Made in the main thread, logged as they are with the next tick.
const pendingRecords: (TargetRecord | HostMemoryRecord)[] = []

/** Stage changes for this tick; target updates and host-memory readings are kept for the log on the side. */
function drainStages(): StageChange[] {
  const changes: StageChange[] = []
  for (let m = receiveMessageOnPort(input.controlPort); m; m = receiveMessageOnPort(input.controlPort)) {
    const message = m.message as ControlMessage
    if (message.type !== 'stage') pendingRecords.push(message.record)
    else changes.push({ tMs: message.tMs, stage: message.stage })
  }
  return changes
}

function start(): void {
  const opened = openNvml({ addonPath: input.addonPath, libraryPath: input.libraryPath, warn: () => {} })
  if (!opened.available) {
    post({ type: 'unavailable', reason: opened.reason })
    return
  }
  const session = opened.session
  let core: SamplerCore
  let writer: JsonlWriter
  try {
    core = new SamplerCore(session.listDevices(), input.options, clock, input.startEpochMs)
    writer = new JsonlWriter(input.logPath)
  } catch (error) {
    session.close()
    post({ type: 'unavailable', reason: (error as Error).message })
    return
  }
  writer.write([
    {
      kind: 'header',
      version: MONITOR_LOG_VERSION,
      startedAt: input.startedAt,
      startEpochMs: input.startEpochMs,
      intervalMs: input.options.intervalMs,
      pid: process.pid,
      sampledGpus: core.sampledGpus,
      devices: core.describeDevices(),
    },
  ])
  run(core, writer, () => session.close())
}

// CPU is also reported from this long after the first tick: a fresh isolate spends its first second compiling
// the tick code, a cost a long monitoring run pays once.
const WARMUP_MS = 1_000

function run(core: SamplerCore, writer: JsonlWriter, closeSession: () => void): void {
  const intervalMs = input.options.intervalMs
  const cpuAtStart = process.threadCpuUsage()
  // The grid starts where this thread is ready (opening NVML takes a while), so start-up is not counted as missed.
  let slot = Math.floor(clock() / intervalMs)
  const firstTickMs = clock()
  let steady = null as { fromMs: number; cpu: NodeJS.CpuUsage } | null
  let ticks = 0
  let missedTicks = 0
  let lastTickMs = 0
  const tick = (forceLowRate: boolean) => {
    lastTickMs = clock()
    if (!steady && lastTickMs - firstTickMs >= WARMUP_MS) steady = { fromMs: lastTickMs, cpu: process.threadCpuUsage() }
    const records = core.tick({ drainStages, forceLowRate })
    writer.write(pendingRecords.length > 0 ? [...pendingRecords.splice(0), ...records] : records)
    ticks++
  }
  post({ type: 'ready', sampledGpus: core.sampledGpus })
  while (Atomics.load(stopSignal, STOP_SLOT) === 0) {
    tick(ticks === 0)
    const now = clock()
    slot++
    if (slot * intervalMs <= now) {
      const next = Math.floor(now / intervalMs) + 1
      missedTicks += next - slot
      slot = next
    }
    Atomics.wait(stopSignal, STOP_SLOT, 0, slot * intervalMs - now)
  }
  tick(true)
  const endMs = clock()
  const cpu = process.threadCpuUsage(cpuAtStart)
  const steadyCpu = steady ? process.threadCpuUsage(steady.cpu) : null
  const end: Omit<EndRecord, 'kind' | 'tMs'> = {
    ticks,
    missedTicks,
    cpuUserUs: cpu.user,
    cpuSystemUs: cpu.system,
    steady: steady && steadyCpu ? { fromMs: steady.fromMs, cpuUs: steadyCpu.user + steadyCpu.system } : null,
  }
  writer.write([{ kind: 'end', tMs: endMs, ...end }])
  writer.close()
  core.close()
  closeSession()
  post({ type: 'stopped', stats: { ...end, lastTickMs } })
  input.controlPort.close()
}

try {
  start()
} catch (error) {
  post({ type: 'failed', error: error instanceof Error ? (error.stack ?? error.message) : String(error) })
}

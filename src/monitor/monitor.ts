/**
 * GpuMonitor: samples GPUs through NVML in a worker thread and writes the JSONL log as it goes; stop() returns the
 * summary. The main thread only stamps stage changes and the target's process tree onto the shared clock.
 *
 *   const started = await GpuMonitor.start({ intervalMs: 100 })
 *   if (started.state !== 'started') skip(started.reason)
 *   await using monitor = started.monitor     // stop() runs even when the test throws
 *   monitor.setStage('ESM-2 Feature Extraction')
 *   const result = await monitor.stop({ sequenceCount: 1000 })
 */
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads'
import { HostMemorySampler } from './host-memory.ts'
import { defaultLogPath } from './jsonl-writer.ts'
import { readMonitorLog } from './log-reader.ts'
import { resolveSamplerOptions, type SamplerOptions } from './options.ts'
import { type ControlMessage, elapsedMs, type FromWorker, STOP_SLOT, type WorkerStats } from './protocol.ts'
import type { TargetRecord } from './records.ts'
import { type MonitorSummary, type SummaryOptions, summarizeRecords } from './summary/summarize.ts'

export interface GpuMonitorOptions extends Partial<SamplerOptions> {
  /** Log file; default `logs/gpu_metrics_<timestamp>.jsonl` under the working directory. */
  logPath?: string
  /** NVML addon and library overrides (load.ts); default search order otherwise. */
  addonPath?: string
  libraryPath?: string
}

export type MonitorStartResult = { state: 'started'; monitor: GpuMonitor } | { state: 'unavailable'; reason: string }

export type MonitorStopResult =
  | { state: 'completed'; logPath: string; summary: MonitorSummary; worker: WorkerStats }
  | { state: 'failed'; logPath: string; error: string; summary: MonitorSummary | null }

/** The target's process tree as the runner tracks it (src/pipeline/process-tree.ts fits). */
export interface TargetTree {
  rootPid: number
  pids(): number[]
}

const WORKER_URL = new URL('./sampler-worker.ts', import.meta.url)
const TARGET_REFRESH_MS = 1_000

export class GpuMonitor {
  readonly logPath: string
  readonly sampledGpus: number[]
  readonly #worker: Worker
  readonly #controlPort: MessagePort
  readonly #stopSignal: Int32Array
  readonly #startNs: bigint
  readonly #exited: Promise<FromWorker>
  readonly #hostMemoryIntervalMs: number
  #target: { tree: TargetTree; requestedGpus: number[] | null; timer: NodeJS.Timeout } | null = null
  /** One per attached tree; each ends with a last reading at stop(). */
  readonly #hostMemory: HostMemorySampler[] = []
  #stopping: Promise<MonitorStopResult> | null = null

  private constructor(init: {
    worker: Worker
    controlPort: MessagePort
    stopSignal: Int32Array
    startNs: bigint
    logPath: string
    sampledGpus: number[]
    exited: Promise<FromWorker>
    hostMemoryIntervalMs: number
  }) {
    this.#worker = init.worker
    this.#controlPort = init.controlPort
    this.#stopSignal = init.stopSignal
    this.#startNs = init.startNs
    this.#exited = init.exited
    this.#hostMemoryIntervalMs = init.hostMemoryIntervalMs
    this.logPath = init.logPath
    this.sampledGpus = init.sampledGpus
  }

  /**
   * Starts sampling; resolves once the worker has opened NVML and written the header.
   * @returns `unavailable` (with the reason) when NVML cannot be used here or a GPU asked for does not exist.
   * @throws MonitorOptionError for a bad option.
   */
  static async start(options: GpuMonitorOptions = {}): Promise<MonitorStartResult> {
    const samplerOptions = resolveSamplerOptions(options)
    const logPath = options.logPath ?? defaultLogPath()
    const { port1, port2 } = new MessageChannel()
    const stopSignal = new SharedArrayBuffer(4)
    const startNs = process.hrtime.bigint()
    const startEpochMs = performance.timeOrigin + performance.now()
    const workerData = {
      options: samplerOptions,
      logPath,
      startNs: startNs.toString(),
      startEpochMs,
      startedAt: new Date(startEpochMs).toISOString(),
      controlPort: port2,
      stopSignal,
      addonPath: options.addonPath,
      libraryPath: options.libraryPath,
    }
    const worker = new Worker(WORKER_URL, { workerData, transferList: [port2] })
    const messages = collectMessages(worker)
    const first = await messages.next()
    if (first.type !== 'ready') {
      await worker.terminate()
      port1.close()
      return { state: 'unavailable', reason: first.type === 'unavailable' ? first.reason : describe(first) }
    }
    // A monitor someone forgot to stop must not keep the process alive; stop() holds it while it waits.
    worker.unref()
    const exited = messages.next()
    const monitor = new GpuMonitor({
      worker,
      controlPort: port1,
      stopSignal: new Int32Array(stopSignal),
      startNs,
      logPath,
      sampledGpus: first.sampledGpus,
      exited,
      hostMemoryIntervalMs: samplerOptions.hostMemoryIntervalMs,
    })
    return { state: 'started', monitor }
  }

  /** Milliseconds since the monitor started, on the clock samples are stamped with. */
  nowMs(): number {
    return elapsedMs(this.#startNs)
  }

  /** Marks the start of `stage` now (null: no stage). Samples from this moment on belong to it. */
  setStage(stage: string | null): void {
    if (this.#stopping) return
    const message: ControlMessage = { type: 'stage', tMs: this.nowMs(), stage }
    this.#controlPort.postMessage(message)
  }

  /**
   * Attributes GPU use to `tree` (its PIDs, refreshed every second and at stop) and to its session/process group, and
   * samples the host memory of its processes (every hostMemoryIntervalMs, and once more at stop).
   * `requestedGpus`: the GPUs the target was asked to use; null: every sampled GPU.
   */
  attachTarget(tree: TargetTree, requestedGpus: number[] | null = null): void {
    if (this.#stopping) return
    if (this.#target) clearInterval(this.#target.timer)
    const timer = setInterval(() => this.#sendTarget(), TARGET_REFRESH_MS).unref()
    this.#target = { tree, requestedGpus, timer }
    this.#sendTarget()
    const hostMemory = new HostMemorySampler({
      tree,
      intervalMs: this.#hostMemoryIntervalMs,
      clock: () => this.nowMs(),
      emit: (record) => this.#controlPort.postMessage({ type: 'host-memory', record } satisfies ControlMessage),
    })
    // The tree attached before is no longer sampled; stop() still waits for its last reading.
    for (const earlier of this.#hostMemory) void earlier.stop()
    this.#hostMemory.push(hostMemory)
    hostMemory.start()
  }

  #sendTarget(): void {
    if (!this.#target) return
    const { tree, requestedGpus } = this.#target
    const record: TargetRecord = {
      kind: 'target',
      tMs: this.nowMs(),
      rootPid: tree.rootPid,
      pids: tree.pids(),
      requestedGpus,
    }
    this.#controlPort.postMessage({ type: 'target', record } satisfies ControlMessage)
  }

  /**
   * Stops sampling (a last reading of every metric first), closes the log and summarizes it. Safe to call twice:
   * both calls get the same result. Never throws: a worker that died gives `failed`, with the summary of what the
   * log holds where it can be read.
   */
  stop(options: SummaryOptions = {}): Promise<MonitorStopResult> {
    this.#stopping ??= this.#stop(options)
    return this.#stopping
  }

  async #stop(options: SummaryOptions): Promise<MonitorStopResult> {
    this.#worker.ref()
    await Promise.all(this.#hostMemory.map((sampler) => sampler.stop()))
    if (this.#target) {
      this.#sendTarget()
      clearInterval(this.#target.timer)
    }
    Atomics.store(this.#stopSignal, STOP_SLOT, 1)
    Atomics.notify(this.#stopSignal, STOP_SLOT)
    const outcome = await this.#exited
    this.#controlPort.close()
    const summary = await readMonitorLog(this.logPath).then(
      (log) => ({ summary: summarizeRecords(log.records, options, this.logPath) }),
      (error: Error) => ({ error: error.message }),
    )
    if (outcome.type === 'stopped' && 'summary' in summary)
      return { state: 'completed', logPath: this.logPath, summary: summary.summary, worker: outcome.stats }
    const error = outcome.type === 'stopped' ? (summary as { error: string }).error : describe(outcome)
    return { state: 'failed', logPath: this.logPath, error, summary: 'summary' in summary ? summary.summary : null }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop()
  }
}

function describe(message: FromWorker): string {
  if (message.type === 'failed') return `monitor worker failed: ${message.error}`
  if (message.type === 'unavailable') return message.reason
  return `monitor worker: unexpected ${message.type}`
}

/** The worker's messages in order; an error or an exit without a message reads as `failed`. */
function collectMessages(worker: Worker): { next(): Promise<FromWorker> } {
  const queue: FromWorker[] = []
  const waiting: ((message: FromWorker) => void)[] = []
  const deliver = (message: FromWorker) => {
    const resolve = waiting.shift()
    if (resolve) resolve(message)
    else queue.push(message)
  }
  worker.on('message', deliver)
  worker.on('error', (error) => deliver({ type: 'failed', error: error.stack ?? error.message }))
  worker.on('exit', (code) => deliver({ type: 'failed', error: `monitor worker exited (code ${code})` }))
  return {
    next: () => {
      const queued = queue.shift()
      return queued ? Promise.resolve(queued) : new Promise((resolve) => waiting.push(resolve))
    },
  }
}

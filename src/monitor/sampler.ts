/**
 * The sampling core, free of threads and timers: `tick()` reads every sampled GPU once and returns the records to
 * log. The worker (sampler-worker.ts) calls it on a schedule; tests call it with a hand-driven clock, which makes
 * scripted series come out exactly.
 */
import type { NvmlDevice } from '../nvml/device.ts'
import { GpmSampler } from '../nvml/gpm.ts'
import { readDriverUtil, readEnergy, readProcesses } from './low-rate.ts'
import type { SamplerOptions } from './options.ts'
import { readDevice } from './read-device.ts'
import type { DeviceInfo, ErrorRecord, MonitorRecord, SampleRecord } from './records.ts'
import { type StageChange, StageTimeline } from './stage-timeline.ts'

interface GpuState {
  device: NvmlDevice
  gpm: GpmSampler | null
  lastGpmAtMs: number
  nextEnergyAtMs: number
  driverSeenUs: number
  lost: boolean
}

export interface TickInput {
  /** Called after the fast reads, so every change stamped before a sample's time is seen (see tick()). */
  drainStages: () => StageChange[]
  /** Read energy, processes and driver samples now, whatever their schedule (first and last tick). */
  forceLowRate?: boolean
}

export class SamplerCore {
  readonly #options: SamplerOptions
  readonly #clock: () => number
  readonly #startEpochMs: number
  readonly #all: NvmlDevice[]
  readonly #gpus: GpuState[]
  readonly #timeline = new StageTimeline()
  readonly #setupErrors: ErrorRecord[] = []
  #nextProcessesAtMs = 0
  #nextDriverAtMs = 0

  /**
   * @param devices every device of the session (process lists are read on all of them)
   * @param clock monotonic ms since the monitor started
   * @throws Error when `options.gpus` names a GPU that does not exist.
   */
  constructor(devices: NvmlDevice[], options: SamplerOptions, clock: () => number, startEpochMs: number) {
    this.#options = options
    this.#clock = clock
    this.#startEpochMs = startEpochMs
    this.#all = devices
    const chosen = options.gpus ?? devices.map((device) => device.index)
    const missing = chosen.filter((gpu) => !devices.some((device) => device.index === gpu))
    if (missing.length > 0)
      throw new Error(`monitor: GPU ${missing.join(',')} not found; this machine has ${devices.length} GPU(s)`)
    this.#gpus = chosen.map((gpu) => this.#initGpu(devices.find((device) => device.index === gpu)!))
  }

  #initGpu(device: NvmlDevice): GpuState {
    let gpm: GpmSampler | null = null
    try {
      const opened = device.lost ? null : GpmSampler.open(device)
      gpm = opened?.state === 'ready' ? opened.sampler : null
    } catch (error) {
      this.#setupErrors.push({ kind: 'error', tMs: 0, gpu: device.index, metric: 'gpm', error: String(error) })
    }
    const lost = device.lost !== null
    return { device, gpm, lastGpmAtMs: Number.NEGATIVE_INFINITY, nextEnergyAtMs: 0, driverSeenUs: 0, lost }
  }

  get sampledGpus(): number[] {
    return this.#gpus.map((state) => state.device.index)
  }

  /** What the header lists about each device; identity reads that fail leave nulls. */
  describeDevices(): DeviceInfo[] {
    return this.#all.map((device) => {
      const gpmSupported = this.#gpus.some((state) => state.device === device && state.gpm !== null)
      try {
        const id = device.identity()
        return { ...id, gpmSupported }
      } catch {
        return { index: device.index, name: null, uuid: null, pciBusId: null, memTotalBytes: null, gpmSupported }
      }
    })
  }

  /**
   * One poll. Fast metrics of each sampled GPU first (each stamped with its own time), then stage changes drained and
   * applied by time (a sample belongs to the stage whose [start, next start) holds its time), then the slower reads.
   * Never throws: failures become error or gpu-lost records.
   */
  tick(input: TickInput): MonitorRecord[] {
    const records: MonitorRecord[] = this.#setupErrors.splice(0)
    const samples: SampleRecord[] = []
    for (const state of this.#gpus) {
      if (state.lost) continue
      const tMs = this.#clock()
      const read = readDevice(state.device, tMs, null)
      if (read.state === 'lost') {
        this.#retire(state)
        records.push(read.record)
        continue
      }
      this.#readGpm(state, read.sample, records)
      samples.push(read.sample)
      records.push(...read.errors)
    }
    const changes = input.drainStages()
    for (const change of changes) {
      this.#timeline.add(change)
      records.push({ kind: 'stage', tMs: change.tMs, stage: change.stage })
    }
    for (const sample of samples) sample.stage = this.#timeline.at(sample.tMs)
    if (samples.length > 0) this.#timeline.forgetBefore(Math.min(...samples.map((s) => s.tMs)))
    records.push(...samples)
    this.#readLowRate(records, changes.length > 0, input.forceLowRate === true)
    return records
  }

  #readGpm(state: GpuState, sample: SampleRecord, records: MonitorRecord[]): void {
    if (!state.gpm || sample.tMs - state.lastGpmAtMs < this.#options.gpmMinIntervalMs) return
    try {
      const reading = state.gpm.sample()
      state.lastGpmAtMs = sample.tMs
      if (reading.state !== 'completed') return
      const v = reading.values
      sample.gpm = {
        smUtilPct: v.smUtilPct ?? null,
        tensorUtilPct: v.anyTensorUtilPct ?? null,
        dramBwUtilPct: v.dramBwUtilPct ?? null,
        intervalMs: reading.intervalMs,
      }
    } catch (error) {
      state.lastGpmAtMs = sample.tMs
      records.push({ kind: 'error', tMs: sample.tMs, gpu: state.device.index, metric: 'gpm', error: String(error) })
    }
  }

  #readLowRate(records: MonitorRecord[], stageChanged: boolean, force: boolean): void {
    const n = Math.max(1, this.#gpus.length)
    this.#gpus.forEach((state, i) => {
      const tMs = this.#clock()
      if (state.lost || !(force || stageChanged || tMs >= state.nextEnergyAtMs)) return
      const record = readEnergy(state.device, tMs)
      if (record) records.push(record)
      // Staggered slots: GPU i reads at (k + i/n) x interval, so 8 GPUs never cost 8 x 4 ms in one tick.
      const interval = this.#options.energyIntervalMs
      state.nextEnergyAtMs = (Math.floor(tMs / interval) + 1 + i / n) * interval
    })
    const now = this.#clock()
    if (force || now >= this.#nextProcessesAtMs) {
      this.#nextProcessesAtMs = now + this.#options.processIntervalMs
      for (const device of this.#all) {
        const record = device.lost ? null : readProcesses(device, this.#clock())
        if (record) records.push(record)
      }
    }
    if (force || now >= this.#nextDriverAtMs) {
      this.#nextDriverAtMs = now + this.#options.driverSamplesIntervalMs
      for (const state of this.#gpus) this.#readDriver(state, records)
    }
  }

  #readDriver(state: GpuState, records: MonitorRecord[]): void {
    if (state.lost) return
    const since = state.driverSeenUs || this.#startEpochMs * 1000
    const { record, lastSeenUs } = readDriverUtil(state.device, this.#clock(), since, this.#startEpochMs)
    state.driverSeenUs = lastSeenUs
    if (record) records.push(record)
  }

  #retire(state: GpuState): void {
    state.lost = true
    state.gpm?.close()
    state.gpm = null
  }

  /** Frees GPM buffers. The session (and its devices) belong to the caller. */
  close(): void {
    for (const state of this.#gpus) this.#retire(state)
  }
}

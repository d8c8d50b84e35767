/** Messages between GpuMonitor (main thread) and its sampling worker. Times are tMs on the shared clock. */
import type { MessagePort } from 'node:worker_threads'
import type { SamplerOptions } from './options.ts'
import type { EndRecord, HostMemoryRecord, TargetRecord } from './records.ts'

export interface WorkerInput {
  options: SamplerOptions
  logPath: string
  /** process.hrtime.bigint() at tMs = 0, as a decimal string (bigint does not cross postMessage in every version). */
  startNs: string
  startEpochMs: number
  startedAt: string
  /**
   * Stage changes, target updates and host-memory readings arrive here; the worker drains it synchronously each tick
   * (receiveMessageOnPort).
   */
  controlPort: MessagePort
  /** Int32Array over it: slot STOP_SLOT set to 1 (and notified) asks the worker to stop. */
  stopSignal: SharedArrayBuffer
  addonPath?: string
  libraryPath?: string
}

/** Drained from `controlPort` at every tick. */
export type ControlMessage =
  | StageMessage
  | { type: 'target'; record: TargetRecord }
  | { type: 'host-memory'; record: HostMemoryRecord }

export const STOP_SLOT = 0

export interface WorkerStats extends Omit<EndRecord, 'kind' | 'tMs'> {
  /** tMs of the worker's last tick. */
  lastTickMs: number
}

export type FromWorker =
  | { type: 'ready'; sampledGpus: number[] }
  | { type: 'unavailable'; reason: string }
  | { type: 'stopped'; stats: WorkerStats }
  | { type: 'failed'; error: string }

export interface StageMessage {
  type: 'stage'
  tMs: number
  stage: string | null
}

/** Milliseconds since `startNs` on process.hrtime (monotonic, one clock for every thread of the process). */
export function elapsedMs(startNs: bigint): number {
  return Number(process.hrtime.bigint() - startNs) / 1e6
}

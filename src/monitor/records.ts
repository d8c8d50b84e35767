/**
 * The monitor's JSONL log: one self-describing record per line, told apart by `kind`. Times are `tMs`, milliseconds
 * on one monotonic clock (process.hrtime, shared by every thread of the process) since the monitor started, so stage
 * changes made in the main thread and samples taken in the worker line up exactly (ARCHITECTURE.md, "Monitor series").
 */

export const MONITOR_LOG_VERSION = 1

/** GPM metrics over the interval that ended at this sample (Hopper and later; pairs >= 100 ms apart). */
export interface GpmValues {
  smUtilPct: number | null
  tensorUtilPct: number | null
  dramBwUtilPct: number | null
  /** Length of the GPM window the values cover. */
  intervalMs: number
}

export interface DeviceInfo {
  index: number
  name: string | null
  uuid: string | null
  pciBusId: string | null
  memTotalBytes: number | null
  gpmSupported: boolean
}

export interface HeaderRecord {
  kind: 'header'
  version: typeof MONITOR_LOG_VERSION
  /** Wall-clock start, ISO 8601, for humans and for run provenance. */
  startedAt: string
  /** Epoch milliseconds at tMs = 0: maps NVML's epoch-stamped buffered samples onto tMs. */
  startEpochMs: number
  intervalMs: number
  /** PID of the process that ran the monitor. */
  pid: number
  /** GPUs sampled every tick; process lists are read on every device. */
  sampledGpus: number[]
  devices: DeviceInfo[]
}

/** One poll of one GPU. A metric the GPU cannot give, or whose read failed, is null. */
export interface SampleRecord {
  kind: 'sample'
  tMs: number
  gpu: number
  /** The stage current when the sample was taken (null: none set). */
  stage: string | null
  utilPct: number | null
  utilMemoryPct: number | null
  memUsedBytes: number | null
  memTotalBytes: number | null
  powerMw: number | null
  tempC: number | null
  smClockMhz: number | null
  memClockMhz: number | null
  clockEventReasons: number | null
  gpm?: GpmValues
}

/** A stage change, stamped in the thread that made it. */
export interface StageRecord {
  kind: 'stage'
  tMs: number
  stage: string | null
}

/** The total-energy counter (read rarely: ~4 ms a call on an H200). */
export interface EnergyRecord {
  kind: 'energy'
  tMs: number
  gpu: number
  energyMj: number
}

/** A compute process on a GPU, with what /proc said about it when the list was read (null once it is gone). */
export interface ProcessEntry {
  pid: number
  usedGpuMemoryBytes: number | null
  ppid: number | null
  pgid: number | null
  sid: number | null
  comm: string | null
}

export interface ProcessesRecord {
  kind: 'processes'
  tMs: number
  gpu: number
  processes: ProcessEntry[]
}

/** The driver's own buffered utilization samples (nvmlDeviceGetSamples), between and beside our polls. */
export interface DriverUtilRecord {
  kind: 'driver-util'
  /** When we read them. */
  tMs: number
  gpu: number
  samples: { tMs: number; utilPct: number }[]
}

/** The target's process tree as known now: every PID seen so far, and the GPUs it was asked to use. */
export interface TargetRecord {
  kind: 'target'
  tMs: number
  rootPid: number
  pids: number[]
  /** null: the target was not told which GPUs to use (all sampled GPUs count as asked for). */
  requestedGpus: number[] | null
}

/** One process of the target's tree as host-memory.ts read it. */
export interface HostMemoryProcess {
  pid: number
  /** From /proc/<pid>/stat at the same read; null when it went away in between. */
  ppid: number | null
  comm: string | null
  /** VmRSS: what the process holds, pages it shares with others included (proc-memory.ts says why both). */
  rssBytes: number
  /** PSS, on the rounds its (costly) read was due for this process; null on the others, or where it cannot be read. */
  pssBytes: number | null
}

/** The host memory of the target's live processes, read about once a second from the main thread. */
export interface HostMemoryRecord {
  kind: 'host-memory'
  tMs: number
  rootPid: number
  /** os.totalmem() at this read: what a verdict sets the tree's memory against. */
  hostMemTotalBytes: number
  processes: HostMemoryProcess[]
}

export interface GpuLostRecord {
  kind: 'gpu-lost'
  tMs: number
  gpu: number
  error: string
}

/** One metric (or one lower-rate read) failed; the rest of that tick went on. */
export interface ErrorRecord {
  kind: 'error'
  tMs: number
  gpu: number | null
  metric: string
  error: string
}

/** Written by stop(): the sampler's own cost and timing. Absent when the monitor died. */
export interface EndRecord {
  kind: 'end'
  tMs: number
  ticks: number
  /** Ticks skipped because a tick overran its slot. */
  missedTicks: number
  /** CPU time of the sampling thread alone (process.threadCpuUsage). */
  cpuUserUs: number
  cpuSystemUs: number
  /** CPU (user + system) of the sampling thread from `fromMs` (1 s after its first tick) to the end: the steady cost. */
  steady: { fromMs: number; cpuUs: number } | null
}

export type MonitorRecord =
  | HeaderRecord
  | SampleRecord
  | StageRecord
  | EnergyRecord
  | ProcessesRecord
  | DriverUtilRecord
  | TargetRecord
  | HostMemoryRecord
  | GpuLostRecord
  | ErrorRecord
  | EndRecord

export type RecordKind = MonitorRecord['kind']

/**
 * Who used which GPU. A compute process belongs to the target when its PID was seen in the target's process tree,
 * or when /proc put it in the target's session or process group (the target is spawned detached, so both equal the
 * root PID). Everything else on a GPU during the run is foreign: someone else's work spoiled the measurement.
 */
import type { ProcessesRecord, TargetRecord } from '../records.ts'

export interface ProcessUse {
  pid: number
  comm: string | null
  /** Largest GPU memory NVML reported for it on this GPU (null: never known). */
  peakMemBytes: number | null
  firstSeenMs: number
  lastSeenMs: number
}

export interface GpuAttribution {
  gpu: number
  /** True when some target process held a context on this GPU. */
  targetPresent: boolean
  /** Largest sum of the target's processes' memory in one reading. */
  targetPeakMemBytes: number | null
  target: ProcessUse[]
  foreign: ProcessUse[]
}

export type Attribution =
  | {
      state: 'attributed'
      rootPid: number
      targetPids: number[]
      /** null: the target was not told which GPUs to use (all sampled GPUs count as asked for). */
      requestedGpus: number[] | null
      gpus: GpuAttribution[]
      /** GPUs on which the target held a context. */
      gpusUsed: number[]
      /** Used by the target but not asked for. */
      unexpectedGpus: number[]
      /** Asked for, but the target never held a context there. */
      idleRequestedGpus: number[]
      foreignProcesses: (ProcessUse & { gpu: number })[]
    }
  | { state: 'no-target'; gpus: GpuAttribution[] }

interface Use {
  target: Map<number, ProcessUse>
  foreign: Map<number, ProcessUse>
  targetPeakMemBytes: number | null
}

function note(map: Map<number, ProcessUse>, entry: ProcessesRecord['processes'][number], tMs: number): void {
  const seen = map.get(entry.pid)
  const mem = entry.usedGpuMemoryBytes
  if (!seen) {
    map.set(entry.pid, { pid: entry.pid, comm: entry.comm, peakMemBytes: mem, firstSeenMs: tMs, lastSeenMs: tMs })
    return
  }
  seen.lastSeenMs = Math.max(seen.lastSeenMs, tMs)
  seen.firstSeenMs = Math.min(seen.firstSeenMs, tMs)
  seen.comm ??= entry.comm
  if (mem !== null) seen.peakMemBytes = Math.max(seen.peakMemBytes ?? 0, mem)
}

/** Attributes every process reading to the target (when one was attached) or to someone else. */
export function attribute(
  processes: readonly ProcessesRecord[],
  targets: readonly TargetRecord[],
  sampledGpus: readonly number[],
): Attribution {
  const last = targets.at(-1)
  const targetPids = new Set(targets.flatMap((t) => t.pids))
  const rootPid = last?.rootPid ?? -1
  const isTarget = (e: ProcessesRecord['processes'][number]) =>
    last !== undefined && (targetPids.has(e.pid) || e.sid === rootPid || e.pgid === rootPid)
  const byGpu = new Map<number, Use>()
  for (const record of [...processes].sort((a, b) => a.tMs - b.tMs)) {
    const use = byGpu.get(record.gpu) ?? { target: new Map(), foreign: new Map(), targetPeakMemBytes: null }
    byGpu.set(record.gpu, use)
    let targetMem: number | null = null
    for (const entry of record.processes) {
      if (!isTarget(entry)) {
        note(use.foreign, entry, record.tMs)
        continue
      }
      note(use.target, entry, record.tMs)
      if (entry.usedGpuMemoryBytes !== null) targetMem = (targetMem ?? 0) + entry.usedGpuMemoryBytes
    }
    if (targetMem !== null) use.targetPeakMemBytes = Math.max(use.targetPeakMemBytes ?? 0, targetMem)
  }
  const gpus = [...byGpu.entries()]
    .sort(([a], [b]) => a - b)
    .map(([gpu, use]) => ({
      gpu,
      targetPresent: use.target.size > 0,
      targetPeakMemBytes: use.targetPeakMemBytes,
      target: [...use.target.values()],
      foreign: [...use.foreign.values()],
    }))
  if (!last) return { state: 'no-target', gpus }
  const requested = last.requestedGpus ?? [...sampledGpus]
  const gpusUsed = gpus.filter((g) => g.targetPresent).map((g) => g.gpu)
  return {
    state: 'attributed',
    rootPid,
    targetPids: [...targetPids].sort((a, b) => a - b),
    requestedGpus: last.requestedGpus,
    gpus,
    gpusUsed,
    unexpectedGpus: gpusUsed.filter((gpu) => !requested.includes(gpu)),
    idleRequestedGpus: requested.filter((gpu) => !gpusUsed.includes(gpu)),
    foreignProcesses: gpus.flatMap((g) => g.foreign.map((use) => ({ ...use, gpu: g.gpu }))),
  }
}

/** The GPUs on which any of `pids` held a context (the runner's `gpusUsedBy` hook). */
export function gpusUsedBy(processes: readonly ProcessesRecord[], pids: readonly number[]): number[] {
  const wanted = new Set(pids)
  const gpus = new Set(processes.filter((r) => r.processes.some((p) => wanted.has(p.pid))).map((r) => r.gpu))
  return [...gpus].sort((a, b) => a - b)
}

// A real multi-GPU-shaped target for attribution tests over 8 GPUs without a GPU: a detached `sh` (its own session)
// with one `sleep` child per "worker", and the fake libnvidia-ml scripted so that each GPU's compute-process list names
// the real PIDs of the workers placed on it. What is real: the processes, their /proc parentage, the monitor (worker
// thread, addon, log, summary) and the tree tracking. What is SCRIPTED: which GPU each worker appears on, its memory,
// and every metric reading.
import { type ChildProcess, spawn } from 'node:child_process'
import { GpuMonitor } from '../../../src/monitor/monitor.ts'
import type { MonitorSummary } from '../../../src/monitor/summary/summarize.ts'
import { readChildren } from '../../../src/pipeline/proc.ts'
import { trackProcessTree } from '../../../src/pipeline/process-tree.ts'
import type { FakeDevice } from '../../support/fake-nvml.ts'
import { ADDON_PATH, sleep, tempLogPath, useFake } from './fake.ts'

export const GIB = 2 ** 30
export const ESM2 = 'ESM-2 Feature Extraction'

export interface WorkerTree {
  rootPid: number
  /** Worker PIDs in start order (worker r = workerPids[r]). */
  workerPids: number[]
  /** Ends the whole group (SIGKILL to -rootPid); safe to call twice. */
  kill(): void
}

/**
 * Starts `workers` sleeping children under a detached shell and waits until all are visible in /proc.
 * @throws Error when they do not all appear within 2 s.
 */
export async function startWorkerTree(workers: number): Promise<WorkerTree> {
  const script = `${Array.from({ length: workers }, () => 'sleep 30 &').join(' ')} wait`
  const child: ChildProcess = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' })
  const rootPid = child.pid!
  let killed = false
  const kill = () => {
    if (killed) return
    killed = true
    try {
      process.kill(-rootPid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
  for (let i = 0; i < 100; i++) {
    const pids = readChildren(rootPid) ?? []
    if (pids.length === workers) return { rootPid, workerPids: pids, kill }
    await sleep(20)
  }
  kill()
  throw new Error(`worker tree under sh ${rootPid}: ${workers} children did not appear within 2 s`)
}

/** Where each worker runs (`gpuOfWorker[r]` is worker r's GPU; null: nowhere) plus other processes per GPU. */
export interface Placement {
  gpuOfWorker: (number | null)[]
  /** PIDs outside the target that hold a context, by GPU. */
  foreign?: Readonly<Record<number, number>>
  /** GPUs the target was asked to use; null: all sampled GPUs. */
  requestedGpus: number[] | null
}

export interface ObservedTree {
  summary: MonitorSummary
  logPath: string
  /** Every PID the tree tracking saw (root first), as the runner would hand them to its `gpusUsedBy` hook. */
  treePids: number[]
}

/** The 8 fake devices: per-GPU utilization `utilPct[g]`, and process lists naming the PIDs placed on each GPU. */
export function scriptedDevices(tree: WorkerTree, placement: Placement, utilPct: readonly number[]): FakeDevice[] {
  return utilPct.map((util, gpu) => ({
    name: 'NVIDIA H200 (fake)',
    memTotalBytes: 141 * GIB,
    memUsedBytes: (gpu + 1) * GIB,
    utilGpuPct: util,
    powerMw: 400_000 + gpu * 1_000,
    energyMj: [1_000, 2_000, 3_000],
    processes: [
      ...tree.workerPids
        .filter((_, r) => placement.gpuOfWorker[r] === gpu)
        .map((pid) => ({ pid, usedGpuMemoryBytes: 4 * GIB })),
      ...(placement.foreign?.[gpu] !== undefined ? [{ pid: placement.foreign[gpu]!, usedGpuMemoryBytes: GIB }] : []),
    ],
  }))
}

/**
 * Monitors the tree for ~`durationMs` over the 8 scripted devices (10 ms ticks, process lists every 20 ms), inside an
 * ESM-2 stage window, and returns the summary.
 * @throws Error when the monitor does not start or stops with a failure.
 */
export async function observeTree(
  tree: WorkerTree,
  placement: Placement,
  utilPct: readonly number[],
  durationMs = 300,
): Promise<ObservedTree> {
  useFake({ devices: scriptedDevices(tree, placement, utilPct) })
  const started = await GpuMonitor.start({
    addonPath: ADDON_PATH,
    logPath: tempLogPath(),
    intervalMs: 10,
    processIntervalMs: 20,
  })
  if (started.state !== 'started') throw new Error(`monitor did not start: ${started.reason}`)
  const monitor = started.monitor
  const tracked = trackProcessTree(tree.rootPid)
  tracked.poll()
  const pids = () => {
    tracked.poll()
    return tracked.pids()
  }
  monitor.attachTarget({ rootPid: tree.rootPid, pids }, placement.requestedGpus)
  monitor.setStage(ESM2)
  await sleep(durationMs)
  monitor.setStage(null)
  const stopped = await monitor.stop()
  if (stopped.state !== 'completed') throw new Error(`monitor failed: ${stopped.error}`)
  return { summary: stopped.summary, logPath: stopped.logPath, treePids: tracked.pids() }
}

// The monitor over 8 GPUs (issue 12's unit part): the real GpuMonitor samples 8 devices of the fake libnvidia-ml while a
// real process tree (a detached shell with 8 `sleep` workers) stands in for an 8-GPU target. The fake's process lists
// name the workers' real PIDs, so attribution reads real /proc parentage; the GPU each worker appears on, and every
// metric reading, are SCRIPTED (test/monitor/support/worker-tree.ts).
import { type ChildProcess, spawn } from 'node:child_process'
import { afterEach, describe, expect, test } from 'vitest'
import type { MonitorSummary } from '../../src/monitor/summary/summarize.ts'
import { ESM2, GIB, observeTree, startWorkerTree, type WorkerTree } from './support/worker-tree.ts'

const GPUS = [0, 1, 2, 3, 4, 5, 6, 7]
/** Scripted utilization per GPU (%): distinct, so a per-GPU summary that mixed GPUs up would show it. */
const UTIL_PCT = [91, 92, 93, 94, 95, 20, 96, 97]

const cleanup: (() => void)[] = []
afterEach(() => {
  for (const end of cleanup.splice(0)) end()
})

async function workers(n: number): Promise<WorkerTree> {
  const tree = await startWorkerTree(n)
  cleanup.push(tree.kill)
  return tree
}

/** A process outside the target's tree and session, to hold a context as "someone else". */
function foreignProcess(): number {
  const child: ChildProcess = spawn('sleep', ['30'], { stdio: 'ignore' })
  cleanup.push(() => child.kill('SIGKILL'))
  return child.pid!
}

function attributed(summary: MonitorSummary) {
  if (summary.attribution.state !== 'attributed') throw new Error('expected the target to be attributed')
  return summary.attribution
}

describe('8 asked, one worker per GPU except GPU 5 (its worker doubled up on GPU 4)', () => {
  // Worker 5 lands on GPU 4; GPU 5 holds only a foreign process.
  const gpuOfWorker = [0, 1, 2, 3, 4, 4, 6, 7]

  test('the monitor samples all 8 devices: one whole-run summary per GPU with its own readings', async () => {
    const tree = await workers(8)
    const { summary } = await observeTree(tree, { gpuOfWorker, requestedGpus: GPUS }, UTIL_PCT)
    expect(summary.sampledGpus).toEqual(GPUS)
    expect(summary.gpus.map((g) => g.gpu)).toEqual(GPUS)
    const counts = summary.gpus.map((g) => g.sampleCount)
    // Every tick reads every GPU: the per-GPU sample counts are equal and non-zero.
    expect(new Set(counts).size).toBe(1)
    expect(counts[0]).toBeGreaterThan(0)
    for (const g of summary.gpus) {
      expect(g.metrics.utilPct?.mean).toBe(UTIL_PCT[g.gpu])
      expect(g.peakMemUsedBytes).toBe((g.gpu + 1) * GIB)
      expect(g.device?.memTotalBytes).toBe(141 * GIB)
      expect(g.requested).toBe(true)
    }
  })

  test('the ESM-2 window has per-GPU stats for all 8 requested GPUs and excludes none', async () => {
    const tree = await workers(8)
    const { summary } = await observeTree(tree, { gpuOfWorker, requestedGpus: GPUS }, UTIL_PCT)
    const stage = summary.stages.find((s) => s.stage === ESM2)!
    expect(stage.gpus.map((g) => [g.gpu, g.metrics.utilPct?.mean])).toEqual(GPUS.map((g) => [g, UTIL_PCT[g]]))
    expect(stage.excludedGpus).toEqual([])
  })

  test('attribution: GPU 5 is an idle requested GPU, nothing is unexpected, GPU 4 holds two workers', async () => {
    const tree = await workers(8)
    const foreign = foreignProcess()
    const { summary } = await observeTree(tree, { gpuOfWorker, requestedGpus: GPUS, foreign: { 5: foreign } }, UTIL_PCT)
    const a = attributed(summary)
    expect(a.gpusUsed).toEqual([0, 1, 2, 3, 4, 6, 7])
    expect(a.idleRequestedGpus).toEqual([5])
    expect(a.unexpectedGpus).toEqual([])
    expect(a.gpus.find((g) => g.gpu === 4)?.target.map((p) => p.pid)).toEqual([tree.workerPids[4], tree.workerPids[5]])
    expect(a.gpus.find((g) => g.gpu === 4)?.targetPeakMemBytes).toBe(8 * GIB)
    expect(summary.flags.idleRequestedGpus).toEqual([5])
  })

  test('a process outside the tree on the idle GPU is foreign, not the target', async () => {
    const tree = await workers(8)
    const foreign = foreignProcess()
    const { summary } = await observeTree(tree, { gpuOfWorker, requestedGpus: GPUS, foreign: { 5: foreign } }, UTIL_PCT)
    const a = attributed(summary)
    expect(a.foreignProcesses.map((p) => [p.gpu, p.pid, p.comm])).toEqual([[5, foreign, 'sleep']])
    expect(summary.flags.foreignProcesses).toBe(1)
    expect(a.targetPids).toEqual(expect.arrayContaining([tree.rootPid, ...tree.workerPids]))
  })
})

describe('4 of 8 GPUs asked (the 4-GPU path on an 8-GPU host), worker 3 lands on GPU 6', () => {
  const placement = { gpuOfWorker: [0, 1, 2, 6], requestedGpus: [0, 1, 2, 3] }

  test('attribution: GPU 6 is unexpected, GPU 3 idle', async () => {
    const tree = await workers(4)
    const a = attributed((await observeTree(tree, placement, UTIL_PCT)).summary)
    expect(a.requestedGpus).toEqual([0, 1, 2, 3])
    expect(a.gpusUsed).toEqual([0, 1, 2, 6])
    expect(a.unexpectedGpus).toEqual([6])
    expect(a.idleRequestedGpus).toEqual([3])
  })

  test('per-stage stats cover the 4 requested GPUs only; the other 4 are listed apart and out of the energy', async () => {
    const tree = await workers(4)
    const { summary } = await observeTree(tree, placement, UTIL_PCT)
    const stage = summary.stages.find((s) => s.stage === ESM2)!
    expect(stage.gpus.map((g) => g.gpu)).toEqual([0, 1, 2, 3])
    expect(stage.excludedGpus.map((g) => g.gpu)).toEqual([4, 5, 6, 7])
    expect(summary.gpus.filter((g) => g.requested).map((g) => g.gpu)).toEqual([0, 1, 2, 3])
    const joules = (gpus: typeof stage.gpus) => gpus.reduce((total, g) => total + (g.energyJ ?? Number.NaN), 0)
    expect(joules(stage.excludedGpus)).toBeGreaterThan(0)
    expect(stage.energyJ).toBeCloseTo(joules(stage.gpus), 9)
  })
})

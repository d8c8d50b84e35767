// Placement and the scaling analysis over 4 and 8 physical GPUs, which CPU runs of the pipeline cannot exercise (they
// ask for no GPU). Which GPUs each run used comes from a real attribution: a real process tree (a detached shell with
// one `sleep` per worker) observed by the real monitor over 8 fake devices whose process lists name the workers' real
// PIDs, read back through the runner's `gpusUsedBy` hook (gpusUsedFromLog). What is SCRIPTED: which GPU each worker
// appears on. What is CONSTRUCTED: the rest of each run (wall and stage times, ESM-2 worker completion times), chosen to
// land inside, below and above the 4- and 8-GPU bands so that every band verdict is reached at least once.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DEFAULT_THRESHOLDS } from '../../src/config/thresholds.ts'
import type { Configuration } from '../../src/engine/configuration.ts'
import type { MeasuredConfiguration } from '../../src/engine/measure-configuration.ts'
import { gpusUsedFromLog } from '../../src/engine/monitor-series.ts'
import type { RunObservation } from '../../src/engine/observe-run.ts'
import { placementEntries, placementVerdict } from '../../src/engine/placement.ts'
import { analyzeScaling } from '../../src/suites/scaling/scaling.ts'
import { ESM2, observeTree, type Placement, startWorkerTree, type WorkerTree } from '../monitor/support/worker-tree.ts'
import { sampleRunRecord } from '../support/result-records.ts'

const ALL_8 = [0, 1, 2, 3, 4, 5, 6, 7]
const UTIL_PCT = ALL_8.map(() => 90)
const STAGE_START_MS = 500

interface Attributed {
  requested: number[]
  used: number[]
  pids: number[]
}

const trees: WorkerTree[] = []
/** GPUs really used per scenario, from the monitor log of a real process tree. */
const seen = new Map<string, Attributed>()

async function attribute(name: string, placement: Placement & { requestedGpus: number[] }): Promise<void> {
  const tree = await startWorkerTree(placement.gpuOfWorker.length)
  trees.push(tree)
  const observed = await observeTree(tree, placement, UTIL_PCT, 150)
  const used = await gpusUsedFromLog(observed.logPath, observed.treePids)
  seen.set(name, { requested: placement.requestedGpus, used, pids: observed.treePids })
}

beforeAll(async () => {
  await attribute('1 GPU', { gpuOfWorker: [0], requestedGpus: [0] })
  await attribute('4 GPUs', { gpuOfWorker: [0, 1, 2, 3], requestedGpus: [0, 1, 2, 3] })
  await attribute('8 GPUs', { gpuOfWorker: ALL_8, requestedGpus: ALL_8 })
  // Worker 5 lands on GPU 4 (GPU 5 idle); in the 4-GPU run worker 3 lands on GPU 6 (not asked for), GPU 3 idle.
  await attribute('8 GPUs, one idle', { gpuOfWorker: [0, 1, 2, 3, 4, 4, 6, 7], requestedGpus: ALL_8 })
  await attribute('4 GPUs, one elsewhere', { gpuOfWorker: [0, 1, 2, 6], requestedGpus: [0, 1, 2, 3] })
}, 30_000)

afterAll(() => {
  for (const tree of trees) tree.kill()
})

/** One completed measured run: real attribution for `scenario`, constructed times. */
function run(scenario: string, n: number, wallMs: number, workerEndsMs: number[]): RunObservation {
  const a = seen.get(scenario)!
  const esm2Ms = Math.max(0, ...workerEndsMs)
  const stage = {
    index: 6,
    name: ESM2,
    startMs: STAGE_START_MS,
    endMs: STAGE_START_MS + esm2Ms,
    receivedDurationMs: esm2Ms,
    logDurationS: esm2Ms / 1000,
    summaryDurationS: esm2Ms / 1000,
    skippedReason: null,
    extras: { proteins: 1_000 },
  }
  const record = sampleRunRecord({
    wallMs,
    stages: [stage],
    gpusRequested: a.requested,
    gpusUsed: a.used,
    pids: a.pids,
  })
  const ends = workerEndsMs.length > 1 ? workerEndsMs : []
  return {
    measured: {
      label: `${scenario} run ${n}`,
      config: { setup: scenario, gpus: a.requested },
      warmup: false,
      run: record,
      gpu: null,
    },
    esm2Batches: [],
    esm2Completions: ends.map((endMs, worker) => ({
      type: 'inference-complete',
      sequences: null,
      sequencesPerS: null,
      tokensPerS: null,
      worker,
      atMs: STAGE_START_MS + endMs,
    })),
    memory: [],
    monitorProblem: null,
    versions: {},
  }
}

/** Three runs of `scenario`: wall times `wallMs`, each worker's ESM-2 stage taking `workerMs[w]` (same each run). */
function measured(scenario: string, wallMs: number[], workerMs: number[]): MeasuredConfiguration {
  const config: Configuration = { label: scenario, gpus: seen.get(scenario)!.requested }
  const observations = wallMs.map((ms, i) => run(scenario, i + 1, ms, workerMs))
  return { config, observations, stop: 'run-budget', failure: null, reusedRuns: 0 }
}

const SINGLE_MS = [8_000, 8_100, 7_900]
const even = (n: number, ms: number) => Array.from({ length: n }, () => ms)

describe('attribution through the runner hook (gpusUsedFromLog) over 8 GPUs', () => {
  test('each worker on its own GPU: the 4- and 8-GPU runs used exactly the GPUs asked for', () => {
    expect(seen.get('4 GPUs')?.used).toEqual([0, 1, 2, 3])
    expect(seen.get('8 GPUs')?.used).toEqual(ALL_8)
  })

  test('misplaced workers: the idle and the unasked GPU show in what was used', () => {
    expect(seen.get('8 GPUs, one idle')?.used).toEqual([0, 1, 2, 3, 4, 6, 7])
    expect(seen.get('4 GPUs, one elsewhere')?.used).toEqual([0, 1, 2, 6])
  })
})

describe('placement over 4 and 8 GPUs', () => {
  test('every run on exactly its GPUs: placement passes over 1-, 4- and 8-GPU runs', () => {
    const all = ['1 GPU', '4 GPUs', '8 GPUs'].map((s) => measured(s, SINGLE_MS, [1_000]))
    const v = placementVerdict(placementEntries(all))
    expect([v.verdict, v.value]).toEqual(['pass', 0])
    expect(v.detail).toBe('9 run(s) used exactly the GPUs asked for')
  })

  test('8 asked, GPU 5 idle: the entries name it and the verdict fails, naming asked and used GPUs', () => {
    const entries = placementEntries([measured('8 GPUs, one idle', SINGLE_MS, [1_000])])
    expect(entries.map((e) => [e.idle, e.unexpected])).toEqual(even(3, 0).map(() => [[5], []]))
    const v = placementVerdict(entries)
    expect([v.verdict, v.value]).toEqual(['fail', 3])
    expect(v.detail).toContain('8 GPUs, one idle run 1: asked 0,1,2,3,4,5,6,7, used 0,1,2,3,4,6,7')
  })

  test('4 of 8 asked, work on GPU 6: unexpected 6 and idle 3; the verdict fails', () => {
    const entries = placementEntries([measured('4 GPUs, one elsewhere', SINGLE_MS, [1_000])])
    expect(entries.map((e) => [e.idle, e.unexpected])).toEqual(even(3, 0).map(() => [[3], [6]]))
    expect(placementVerdict(entries).verdict).toBe('fail')
  })
})

describe('scaling analysis at 4 and 8 GPUs (constructed times, real placement)', () => {
  const single = () => measured('1 GPU', SINGLE_MS, [5_000])

  test.each([
    ['4 GPUs', 4, [2_200, 2_210, 2_190], 'pass'],
    ['4 GPUs', 4, [4_000, 4_050, 3_950], 'fail'],
    ['8 GPUs', 8, [1_150, 1_160, 1_140], 'pass'],
    ['8 GPUs', 8, [2_000, 2_020, 1_980], 'fail'],
    ['8 GPUs', 8, [900, 905, 895], 'flag'],
  ] as const)('%s at %j ms against 8 s on 1 GPU: scaling/%i/total is %s', (scenario, gpus, wallMs, expected) => {
    const multi = measured(scenario, [...wallMs], even(gpus, 600))
    const { verdicts } = analyzeScaling(single(), multi, gpus, DEFAULT_THRESHOLDS)
    const total = verdicts.find((v) => v.id === `scaling/${gpus}/total`)!
    expect(total.threshold).toBe(gpus === 4 ? '3x-4x' : '6x-8x')
    expect(total.verdict).toBe(expected)
  })

  test('8 GPUs: per-stage verdict, balance over 8 workers flags the slow one, placement passes, no PERF-03', () => {
    const workerMs = [...even(7, 600), 900]
    const multi = measured('8 GPUs', [1_150, 1_160, 1_140], workerMs)
    const { stats, verdicts } = analyzeScaling(single(), multi, 8, DEFAULT_THRESHOLDS)
    expect(verdicts.map((v) => v.id)).toEqual(['scaling/8/total', `scaling/8/${ESM2}`, 'balance/ESM-2', 'placement'])
    expect(stats.balance?.workers.map((w) => [w.worker, w.medianMs])).toEqual(
      workerMs.map((ms, w) => [`worker ${w}`, ms]),
    )
    expect(stats.balance?.slowest).toBe('worker 7')
    expect(verdicts.find((v) => v.id === 'balance/ESM-2')?.verdict).toBe('flag')
    expect(verdicts.find((v) => v.id === 'placement')?.verdict).toBe('pass')
  })

  test('4 GPUs with a worker on an unasked GPU: the speedup can pass while placement fails', () => {
    const multi = measured('4 GPUs, one elsewhere', [2_200, 2_210, 2_190], even(4, 600))
    const { stats, verdicts } = analyzeScaling(single(), multi, 4, DEFAULT_THRESHOLDS)
    expect(verdicts.find((v) => v.id === 'scaling/4/total')?.verdict).toBe('pass')
    expect(verdicts.find((v) => v.id === 'placement')?.verdict).toBe('fail')
    expect(stats.placement.filter((e) => e.unexpected.length > 0).map((e) => e.label)).toEqual([
      '4 GPUs, one elsewhere run 1',
      '4 GPUs, one elsewhere run 2',
      '4 GPUs, one elsewhere run 3',
    ])
  })
})

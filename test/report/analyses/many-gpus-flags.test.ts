// The report's bottleneck rules over 8 GPUs, fed with real monitor summaries: the real monitor watched a real process
// tree (one `sleep` per worker) over 8 fake devices whose process lists name the workers' real PIDs
// (test/monitor/support/worker-tree.ts). SCRIPTED: each GPU's utilization and which GPU each worker appears on.
// CONSTRUCTED: the run records around the summaries (wall time, one ESM-2 stage span).
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { MonitorSummary } from '../../../src/monitor/summary/summarize.ts'
import { analyzeBottlenecks, type BottleneckGroup } from '../../../src/report/analyses/bottleneck.ts'
import type { MeasuredRun, ResultRecord } from '../../../src/results/schema/index.ts'
import { parseResultRecord } from '../../../src/results/store.ts'
import {
  ESM2,
  observeTree,
  type Placement,
  startWorkerTree,
  type WorkerTree,
} from '../../monitor/support/worker-tree.ts'
import { sampleResultRecord, sampleRunRecord } from '../../support/result-records.ts'

const ALL_8 = [0, 1, 2, 3, 4, 5, 6, 7]
const trees: WorkerTree[] = []
let record: ResultRecord

async function observed(placement: Placement, utilPct: number[]): Promise<MonitorSummary> {
  const tree = await startWorkerTree(placement.gpuOfWorker.length)
  trees.push(tree)
  return (await observeTree(tree, placement, utilPct, 250)).summary
}

function run(setup: string, gpus: number[], summary: MonitorSummary): MeasuredRun {
  const stage = {
    index: 6,
    name: ESM2,
    startMs: 100,
    endMs: 9_100,
    receivedDurationMs: 9_000,
    logDurationS: 9,
    summaryDurationS: 9,
    skippedReason: null,
    extras: { proteins: 1_000 },
  }
  const used = summary.attribution.state === 'attributed' ? summary.attribution.gpusUsed : null
  return {
    label: `${setup} run 1`,
    config: { setup, gpus, gpuCount: gpus.length },
    warmup: false,
    run: sampleRunRecord({ wallMs: 10_000, stages: [stage], gpusRequested: gpus, gpusUsed: used }),
    gpu: summary,
  }
}

beforeAll(async () => {
  // 8 asked; worker 5 doubles up on GPU 4, so GPU 5 idles at 20% while the others run at 90-97%.
  const eight = await observed(
    { gpuOfWorker: [0, 1, 2, 3, 4, 4, 6, 7], requestedGpus: ALL_8 },
    [90, 91, 92, 93, 94, 20, 96, 97],
  )
  // 4 of 8 asked, evenly busy; worker 3 runs on GPU 6. GPUs 4-7 read 5%: outside the request, they must not count.
  const four = await observed({ gpuOfWorker: [0, 1, 2, 6], requestedGpus: [0, 1, 2, 3] }, [90, 90, 90, 90, 5, 5, 5, 5])
  const runs = [run('8 GPUs', ALL_8, eight), run('4 of 8 GPUs', [0, 1, 2, 3], four)]
  record = sampleResultRecord({ id: 'stage-many-gpus', kind: 'stage', name: 'stage, 4 and 8 GPUs', runs })
}, 30_000)

afterAll(() => {
  for (const tree of trees) tree.kill()
})

const group = (name: string): BottleneckGroup => analyzeBottlenecks([record]).groups.find((g) => g.group === name)!
const rules = (g: BottleneckGroup, stage: string) => g.flags.filter((f) => f.stage === stage).map((f) => f.rule)

describe('bottleneck rules over real 8-GPU monitor summaries', () => {
  test('a record holding 8-GPU monitor summaries is schema-valid', () => {
    expect(parseResultRecord(JSON.stringify(record), 'stage-many-gpus.json')).toHaveProperty('record')
  })

  test('groups count 8 and 4 GPUs (from the configuration, not the 8 sampled devices)', () => {
    expect([group('8 GPUs').gpuCount, group('4 of 8 GPUs').gpuCount]).toEqual([8, 4])
  })

  test('8 GPUs, one at 20%: ESM-2 is flagged gpu-imbalance; the whole run flags GPU 5 asked for but idle', () => {
    const g = group('8 GPUs')
    expect(rules(g, ESM2)).toContain('gpu-imbalance')
    expect(rules(g, '(whole run)')).toEqual(['idle-requested-gpus'])
    expect(g.flags.find((f) => f.rule === 'idle-requested-gpus')?.evidence).toBe('GPU 5 asked for but never used')
  })

  test('4 of 8 asked: GPU 6 flagged as not asked for, GPU 3 as idle; the 5% GPUs outside the request cause no imbalance', () => {
    const g = group('4 of 8 GPUs')
    expect(rules(g, '(whole run)')).toEqual(['unexpected-gpus', 'idle-requested-gpus'])
    expect(g.flags.find((f) => f.rule === 'unexpected-gpus')?.evidence).toBe('work on GPU 6, which was not asked for')
    expect(rules(g, ESM2)).not.toContain('gpu-imbalance')
  })
})

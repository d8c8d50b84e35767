// The gpu-imbalance rule over one 2-GPU run, through the real monitor summary, evidence and rule table. The per-GPU
// utilization of each stage is what the 2 x H200 runs of 2026-11-22 read, rebuilt from their report
// (docs/results/2026-11-22-h200/bottleneck.json, group `2 GPUs, imbalance`: each stage's mean over both GPUs and the
// flagged spread give both GPUs' means); the issue's VirNucPro Model Prediction (0.6% on one GPU, 0% on the other) is
// from issue #18. SCRIPTED: the sample sequences that reproduce those means (100 ms apart; the GPU given less work
// idles once it is done); a stage's busiest sample is the smallest one consistent with its mean unless said otherwise.
import { describe, expect, test } from 'vitest'
import type { MonitorRecord } from '../../../src/monitor/records.ts'
import { summarizeRecords } from '../../../src/monitor/summary/summarize.ts'
import type { StageSpan } from '../../../src/pipeline/stage-spans.ts'
import { analyzeBottlenecks } from '../../../src/report/analyses/bottleneck.ts'
import type { BottleneckFlag } from '../../../src/report/analyses/bottleneck-rules.ts'
import { header, sample } from '../../monitor/support/records.ts'
import { sampleResultRecord, sampleRunRecord } from '../../support/result-records.ts'
import { stageSpan } from '../../support/stage-span.ts'

const INTERVAL_MS = 100

/** Per stage, the utilization samples (%) of GPU 0 and GPU 1, in order. */
const STAGES: [string, number[], number[]][] = [
  // Planted imbalance=2: worker 0 does twice its share. Real means 40.9% and 13.3% (mean 27.1%, spread 102.1%).
  ['ESM-2 Feature Extraction', [0, 45, 45, 45, 45, 45, 45, 45, 45, 49], [0, 45, 44, 44, 0, 0, 0, 0, 0, 0]],
  // Sharded, but near idle after a 4.5 s start-up: real means 4.5% and 2.8% (spread 46.2%).
  ['DNABERT-S Feature Extraction', [0, 0, 0, 0, 0, 0, 0, 0, 0, 45], [0, 0, 0, 0, 0, 0, 0, 0, 0, 28]],
  // The case: a single-process stage at 0.67% on GPU 0, GPU 1 idle (spread 200%).
  ['Model Prediction', [0, 0, 2], [0, 0, 0]],
  // A single-process stage caught at full load in one sample (the fp32 1-GPU runs' Model Prediction read 100%).
  ['Consensus Scoring', [0, 100, 0], [0, 0, 0]],
]

function twoGpuRecord() {
  const records: MonitorRecord[] = [header([0, 1], INTERVAL_MS)]
  const spans: StageSpan[] = []
  let tMs = 0
  STAGES.forEach(([stage, gpu0, gpu1], i) => {
    records.push({ kind: 'stage', tMs, stage })
    gpu0.forEach((util, k) => {
      records.push(sample(0, tMs + k * INTERVAL_MS, { stage, utilPct: util }))
      records.push(sample(1, tMs + k * INTERVAL_MS, { stage, utilPct: gpu1[k] as number }))
    })
    const durationMs = gpu0.length * INTERVAL_MS
    spans.push(stageSpan(i + 5, stage, tMs, durationMs))
    tMs += durationMs
  })
  records.push({ kind: 'stage', tMs, stage: null })
  const run = sampleRunRecord({ wallMs: tMs, stages: spans, gpusRequested: [0, 1], gpusUsed: [0, 1] })
  const config = { setup: '2 GPUs, imbalance', gpus: [0, 1] }
  const measured = { label: '2 GPUs, imbalance run 1', config, warmup: false, run, gpu: summarizeRecords(records) }
  return sampleResultRecord({ id: 'scaling-2-GPUs-imbalance', kind: 'scaling', runs: [measured] })
}

const flags: BottleneckFlag[] = analyzeBottlenecks([twoGpuRecord()]).groups.flatMap((g) => g.flags)
const imbalanced = (stage: string) => flags.filter((f) => f.rule === 'gpu-imbalance' && f.stage === stage)

describe('gpu-imbalance on a 2-GPU run', () => {
  test('the planted ESM-2 imbalance still flags, naming the spread over 2 working GPUs', () => {
    expect(imbalanced('ESM-2 Feature Extraction').map((f) => f.evidence)).toEqual([
      'per-GPU utilization spread 101.8% over 2 working GPUs, busiest at 40.9% (rule: <= 10.0% where the work is sharded and the busiest GPU is at >= 20.0%)',
    ])
  })

  test("the issue's single-process stage (0.67% on one GPU, 0% on the other) is not flagged", () => {
    expect(imbalanced('Model Prediction')).toEqual([])
  })

  test('a single-process stage is not flagged even at full load on its one GPU (work on one GPU is not sharded)', () => {
    expect(imbalanced('Consensus Scoring')).toEqual([])
  })

  test('a sharded stage whose busier GPU is below bottleneck.imbalanceMinUtilPct (20%) is not flagged', () => {
    expect(imbalanced('DNABERT-S Feature Extraction')).toEqual([])
  })
})

// Stages too short to judge (config/judging.ts) raise no bottleneck flag, through the real monitor summary, evidence
// and rule table: a 300 ms stage and a 3 s stage, both under a thermal slowdown (clock-event bit 0x40) in every
// sample and idle between, on one GPU. The long one is flagged; the short one is shown, not judged.
import { describe, expect, test } from 'vitest'
import { MIN_JUDGED_STAGE_MS } from '../../../src/config/judging.ts'
import type { MonitorRecord } from '../../../src/monitor/records.ts'
import { summarizeRecords } from '../../../src/monitor/summary/summarize.ts'
import type { StageSpan } from '../../../src/pipeline/stage-spans.ts'
import { analyzeBottlenecks } from '../../../src/report/analyses/bottleneck.ts'
import { bottleneckMarkdown } from '../../../src/report/render/markdown-sections.ts'
import { header, sample } from '../../monitor/support/records.ts'
import { sampleResultRecord, sampleRunRecord } from '../../support/result-records.ts'
import { stageSpan } from '../../support/stage-span.ts'

const INTERVAL_MS = 100
const STAGES: [string, number][] = [
  ['Model Prediction', 300],
  ['ESM-2 Feature Extraction', 3_000],
]

function throttledRecord() {
  const records: MonitorRecord[] = [header([0], INTERVAL_MS)]
  const spans: StageSpan[] = []
  let tMs = 0
  STAGES.forEach(([stage, durationMs], i) => {
    records.push({ kind: 'stage', tMs, stage })
    for (let k = 0; k < durationMs / INTERVAL_MS; k++)
      records.push(sample(0, tMs + k * INTERVAL_MS, { stage, utilPct: 5, clockEventReasons: 0x40 }))
    spans.push(stageSpan(i + 1, stage, tMs, durationMs))
    tMs += durationMs
  })
  records.push({ kind: 'stage', tMs, stage: null })
  const run = sampleRunRecord({ wallMs: tMs, stages: spans, gpusRequested: [0], gpusUsed: [0] })
  const measured = {
    label: '1 GPU run 1',
    config: { setup: '1 GPU', gpus: [0] },
    warmup: false,
    run,
    gpu: summarizeRecords(records),
  }
  return sampleResultRecord({ id: 'stage-1-GPU', kind: 'stage', runs: [measured] })
}

describe('stages too short to judge', () => {
  test('a 300 ms stage under a thermal slowdown raises no flag; a 3 s one does; bottleneck.md says below which', () => {
    const report = analyzeBottlenecks([throttledRecord()])
    const flags = report.groups.flatMap((g) => g.flags)
    expect(flags.filter((f) => f.stage === 'ESM-2 Feature Extraction').map((f) => f.rule)).toContain('throttling')
    expect(flags.filter((f) => f.stage === 'Model Prediction')).toEqual([])
    // Still measured and shown.
    expect(report.groups[0]!.stages.map((s) => s.stage)).toContain('Model Prediction')
    expect(bottleneckMarkdown(report)).toContain(
      `Stages under ${MIN_JUDGED_STAGE_MS.toLocaleString('en-US')} ms are shown but not judged`,
    )
  })
})

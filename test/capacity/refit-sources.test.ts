import { describe, expect, test } from 'vitest'
import { lacksBusySpans, newSourceCount, sourceNotes, withKeptSources } from '../../src/capacity/refit-sources.ts'
import type { MonitorSummary } from '../../src/monitor/summary/summarize.ts'
import type { MeasuredRun, StageProgress } from '../../src/results/schema/index.ts'
import { sampleResultRecord, sampleRunRecord } from '../support/result-records.ts'

const ESM2 = 'ESM-2 Feature Extraction'
const batches: StageProgress = { stage: ESM2, worker: 0, total: 30, lines: 3, atMs: [1, 2, 3], done: [10, 20, 30] }
const spans: StageProgress = { ...batches, source: 'worker-span', lines: 2, atMs: [0, 3], done: [0, 30] }
const bar: StageProgress = { ...batches, stage: 'S', source: 'tqdm', worker: null, atMs: [0, 3], done: [0, 30] }

const summary = (busySpanMs?: number) =>
  ({
    stages: [
      {
        stage: ESM2,
        gpus: [{ gpu: 0, metrics: {}, leadingIdleMs: 5, ...(busySpanMs !== undefined && { busySpanMs }) }],
      },
    ],
  }) as unknown as MonitorSummary

const run = (progress: StageProgress[] | undefined, gpu: MonitorSummary | null = null): MeasuredRun => ({
  label: 'r',
  config: {},
  warmup: false,
  run: sampleRunRecord(),
  gpu,
  ...(progress && { progress }),
})

describe("a stored run's in-run rates, completed from its logs", () => {
  const record = sampleResultRecord()

  test("the record's series are kept; the log's of sources the record lacks are added, and counted", () => {
    const count = newSourceCount()
    const fromLog = () => [{ ...batches, atMs: [1_000, 2_000, 3_000] }, spans, bar]
    const read = withKeptSources(run([batches]), record, { progressOf: fromLog }, count)
    expect(read.progress).toEqual([batches, spans, bar])
    const none = withKeptSources(run(undefined), record, { progressOf: () => null }, count)
    expect(none.progress).toEqual([])
    withKeptSources(run(undefined), record, { progressOf: fromLog }, count)
    withKeptSources(run([batches]), record, { progressOf: () => [batches] }, count)
    expect(sourceNotes('1 GPU', count)).toEqual([
      "1 GPU: progress lines of 1 from the records, 1 from the records and their target.log (worker spans, tqdm bars, which the records lack), 1 from their target.log (the pipeline's own timestamps, 1 s on its main process: coarser), 1 with none (none in the record, no log with any): their stages fitted across sizes",
    ])
  })

  test('a summary from before busy spans takes them from its monitor log; its other figures stay as stored', () => {
    const count = newSourceCount()
    const stored = summary()
    expect(lacksBusySpans(stored)).toBe(true)
    const reread = { stages: [{ stage: ESM2, gpus: [{ gpu: 0, metrics: { x: 1 }, busySpanMs: 900 }] }] }
    const read = withKeptSources(
      run([], stored),
      record,
      { progressOf: () => null, monitorOf: () => reread as unknown as MonitorSummary },
      count,
    )
    expect(read.gpu!.stages[0]!.gpus[0]).toEqual({ gpu: 0, metrics: {}, leadingIdleMs: 5, busySpanMs: 900 })
    expect(sourceNotes('1 GPU', count)[1]).toBe(
      '1 GPU: GPU busy spans of 1 run(s) from their gpu.jsonl (their records predate them)',
    )
    // A summary that has them is not read again.
    const monitorOf = () => {
      throw new Error('not to be read')
    }
    expect(withKeptSources(run([], summary(700)), record, { progressOf: () => null, monitorOf }, count).gpu).toEqual(
      summary(700),
    )
  })
})

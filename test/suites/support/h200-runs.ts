/**
 * Replays the real H200 runs kept in test/fixtures/h200-runs (reference pipeline, full scale, fp16, 1 GPU, monitor at
 * 100 ms; run 2026-11-22T01-00-00Z-c0de): each folder holds the pipeline's full log as received (`target.log`), the
 * monitor's header, stage and sample records (`gpu.jsonl`, GPM values dropped) and the runner's RunRecord
 * (`record.json`; log tail, command and outputs dropped). The runner's batch receive times were not kept, so each ESM-2
 * batch event's time is rebuilt from its own line: done / cumulative seq/s after the stage start (the log's
 * timestamps have 1 s resolution). Only the slope of those times is used.
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { RunObservation } from '../../../src/engine/observe-run.ts'
import type { BatchEvent, InferenceCompleteEvent } from '../../../src/pipeline/events.ts'
import { createLogParser } from '../../../src/pipeline/log-parser.ts'
import type { RunRecord } from '../../../src/pipeline/run-record.ts'

export const H200_RUNS_DIR = resolve(import.meta.dirname, '../../fixtures/h200-runs')

/** The kept runs: MEDIUM lengths at 500 and 5,000 records, TYPICAL (lognormal) lengths at 2,000 (two runs). */
export const H200_RUNS = ['500', '2000-run-1', '2000-run-2', '5000'] as const
export type H200Run = (typeof H200_RUNS)[number]

function esm2Batches(logText: string, run: RunRecord): BatchEvent[] {
  const startMs = run.stages.find((s) => s.name === 'ESM-2 Feature Extraction')?.startMs ?? 0
  const parser = createLogParser()
  const lines = logText.split('\n').flatMap((line) => parser.push(line, 0))
  return lines
    .filter((e): e is BatchEvent => e.type === 'batch')
    .map((e) => ({ ...e, atMs: startMs + (e.done / e.sequencesPerS) * 1000 }))
}

function esm2Completions(logText: string, run: RunRecord): InferenceCompleteEvent[] {
  const endMs = run.stages.find((s) => s.name === 'ESM-2 Feature Extraction')?.endMs ?? 0
  const parser = createLogParser()
  return logText
    .split('\n')
    .flatMap((line) => parser.push(line, 0))
    .filter((e): e is InferenceCompleteEvent => e.type === 'inference-complete')
    .map((e) => ({ ...e, atMs: endMs }))
}

/** One kept run as the e2e suite observes it; its log path points into the fixture, so gpu.jsonl is found beside it. */
export function loadH200Run(name: H200Run): RunObservation {
  const dir = join(H200_RUNS_DIR, name)
  const kept = JSON.parse(readFileSync(join(dir, 'record.json'), 'utf8'))
  const run: RunRecord = { ...kept.run, logPath: join(dir, 'target.log') }
  const logText = readFileSync(run.logPath!, 'utf8')
  return {
    measured: { label: kept.label, config: kept.config, warmup: false, run, gpu: null },
    esm2Batches: esm2Batches(logText, run),
    esm2Completions: esm2Completions(logText, run),
    memory: [],
    monitorProblem: null,
    versions: {},
  }
}

import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { repeatingUnit, structureOf } from '../../src/capacity/structure.ts'
import { VIRNUCPRO_TARGETS } from '../../src/config/capacity-targets.ts'
import { progressFromLog } from '../../src/engine/progress-from-log.ts'
import { createProgressCollector } from '../../src/engine/run-progress.ts'
import type { TargetEvent } from '../../src/pipeline/events.ts'
import { logFileLines } from '../../src/pipeline/log-file-lines.ts'
import { runTarget } from '../../src/pipeline/runner.ts'
import { PIPELINE_STAGES } from '../../src/pipeline/stages.ts'
import { RunRecordSchema } from '../../src/results/schema/run-record.ts'
import { useWorkdir } from './support/fake-profile.ts'
import { type FixtureRun, replayEnv, replayProfile, VIRNUCPRO_FIXTURES } from './support/replay-profile.ts'

/**
 * The unmodified VirNucPro's own output (test/fixtures/virnucpro/: stand-in weights, 1,000 records, 1 and 2 H100s),
 * replayed by a real process with its stdout and stderr interleaved as written and the time compressed SPEEDUP times:
 * what the runner, the log parser and the suite's progress collector read of it. Times on the runner's clock are
 * checked against the fixture's own stamps, compressed, within TOLERANCE (timers on a loaded 2-core machine).
 */
const SPEEDUP = 40
const tolerance = (ms: number) => 60 + 0.25 * ms

const work = useWorkdir()

interface Seen {
  event: TargetEvent
  stage: string | null
}

/** Runs the replay of `run`; every event with the stage it came in, and the progress the suite collects from them. */
async function replay(run: FixtureRun) {
  const seen: Seen[] = []
  const progress = createProgressCollector()
  let stage: string | null = null
  const record = await runTarget(replayProfile(), {
    input: work.input,
    outputDir: work.outputDir,
    env: { ...replayEnv(run, SPEEDUP), FAKE_RUN_TAG: work.tag },
    graceMs: 500,
    pollIntervalMs: 50,
    onEvent(event) {
      seen.push({ event, stage })
      progress.push(event, stage)
      if (event.type === 'stage-start') stage = event.name
      else if (event.type === 'stage-end') stage = null
    },
  })
  return { record, seen, series: progress.series() }
}

const fixture = (file: string) => readFileSync(join(VIRNUCPRO_FIXTURES, file), 'latin1')
/** The stamp (ms) of the first line of `text` that contains `what` (and `worker`, when given). */
function stampOf(text: string, what: string, worker?: number): number {
  const line = text
    .split('\n')
    .find((l) => l.includes(what) && (worker === undefined || l.includes(`Worker ${worker} -`)))
  const stamp = /(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:,(\d{3}))?/.exec(line ?? '')!
  return Date.parse(`${stamp[1]}T${stamp[2]}.${stamp[3] ?? '000'}Z`)
}
const compressed = (fromMs: number, toMs: number) => (toMs - fromMs) / SPEEDUP

describe("the unmodified VirNucPro's output, replayed by a real process", () => {
  test('v2, 2 GPUs: stages, summary, input sequences, worker lines on stderr beside stdout, and worker spans', async () => {
    const { record, seen, series } = await replay('v2-2gpu')
    expect(record.exitClass).toBe('completed')
    expect(RunRecordSchema.safeParse(record).error).toBeUndefined()
    expect(record.logReadErrors).toEqual({ total: 0, first: [] })
    expect(record.stages.map((s) => [s.name, s.logDurationS, s.summaryDurationS])).toEqual(
      PIPELINE_STAGES.map((name, i) => [
        name,
        ...[[0.4], [6.1], [0], [0], [39.7], [50.5], [6.9], [0.8], [0.5]][i]!.flatMap((d) => [d, d]),
      ]),
    )
    expect(record.stageMismatches).toEqual([])
    // The summary's `Sequences processed` (3,152) sums every stage's `sequences`: the input is chunking's 1,000.
    expect(record.summary).toMatchObject({ totalWallS: 105, sequencesProcessed: 1_000 })
    expect(record.summary?.metrics['Sequences processed']).toBe(3_152)
    // The ESM-2 stage on the runner's clock: its stamps' 50 s (whole seconds), compressed.
    const esm2 = record.stages.find((s) => s.name === 'ESM-2 Feature Extraction')!
    const stdout = fixture('v2-2gpu.stdout')
    const esm2Ms = compressed(stampOf(stdout, 'Stage 6: ESM-2'), stampOf(stdout, 'ESM-2 Feature Extraction completed'))
    expect(Math.abs(esm2.receivedDurationMs! - esm2Ms)).toBeLessThan(tolerance(esm2Ms))

    // Every worker line of stderr is read, each with its rank, while the stdout's ESM-2 stage runs.
    const stderr = fixture('v2-2gpu.stderr')
    const workerLines = seen.filter((s) => s.event.type === 'worker')
    expect(workerLines).toHaveLength(stderr.split('\n').filter((l) => / - Worker \d+ - /.test(l)).length)
    expect(new Set(workerLines.map((s) => s.stage))).toEqual(new Set(['ESM-2 Feature Extraction']))
    // `0.0 seq/s, 0 tokens/s`: no rate was measured, and none is read.
    const done = seen.flatMap((s) => (s.event.type === 'inference-complete' ? [s.event] : []))
    expect(done.map((e) => [e.worker, e.sequences, e.sequencesPerS, e.tokensPerS])).toEqual([
      [1, 799, null, null],
      [0, 800, null, null],
    ])

    // Each worker's span, `Starting inference` to `Async inference complete`, on the runner's clock.
    const spans = series.filter((p) => p.source === 'worker-span')
    expect(spans.map((p) => [p.stage, p.worker, p.total, p.done])).toEqual([
      ['ESM-2 Feature Extraction', 1, 799, [0, 799]],
      ['ESM-2 Feature Extraction', 0, 800, [0, 800]],
    ])
    for (const p of spans) {
      const want = compressed(
        stampOf(stderr, 'Starting inference on', p.worker!),
        stampOf(stderr, 'Async inference complete', p.worker!),
      )
      expect(Math.abs(p.atMs[1]! - p.atMs[0]! - want), `worker ${p.worker}`).toBeLessThan(tolerance(want))
    }
    // The log file holds both streams whole; read back (a refit), it gives the same spans on the workers' ms stamps.
    expect((await readFile(record.logPath!)).length).toBe(stdout.length + stderr.length)
    const fromLog = progressFromLog(logFileLines(record.logPath!)).filter((p) => p.source === 'worker-span')
    expect(fromLog.map((p) => [p.worker, p.done, p.atMs[1]! - p.atMs[0]!])).toEqual(
      spans.map((p) => [
        p.worker,
        p.done,
        stampOf(stderr, 'Async inference complete', p.worker!) - stampOf(stderr, 'Starting inference on', p.worker!),
      ]),
    )
  })

  test('v1, 1 GPU: file lines (ESM-2 from its model ready), tqdm bars timed by their first byte', async () => {
    const { record, seen, series } = await replay('v1-1gpu')
    expect(record.exitClass).toBe('completed')
    expect(record.stageMismatches).toEqual([])
    expect(record.summary).toMatchObject({ totalWallS: 70.5, sequencesProcessed: 1_000 })
    const stdout = fixture('v1-1gpu.stdout')

    const files = series.filter((p) => p.source === 'file-lines')
    expect(files.map((p) => [p.stage, p.worker, p.total, p.done])).toEqual([
      ['DNABERT-S Feature Extraction', null, 1_599, [0, 1_599]],
      ['ESM-2 Feature Extraction', null, 1_599, [0, 1_599]],
    ])
    // What the capacity plan reads from such a run (issue 48): ESM-2 built once per file of 10,000 proteins, 1.6
    // proteins a record, so two and a half files are 15,635 records.
    const structure = structureOf({ records: 1_000, progress: series }, VIRNUCPRO_TARGETS.batching)
    expect(structure.perFile).toMatchObject({ stage: 'ESM-2 Feature Extraction', itemsPerFile: 10_000 })
    expect(structure.perFile!.itemsPerRecord).toBeCloseTo(1.599)
    expect(repeatingUnit(structure, 1)!.records).toBe(15_635)
    // DNABERT-S from `Extracting` to `Saved`; ESM-2 from `ESM-2 ready` (its model built before) to `Saved`.
    const pieces = [
      compressed(stampOf(stdout, 'Extracting DNABERT-S'), stampOf(stdout, 'Saved DNABERT-S')),
      compressed(stampOf(stdout, 'ESM-2 ready'), stampOf(stdout, 'Saved ESM-2')),
    ]
    files.forEach((p, i) => {
      expect(Math.abs(p.atMs[1]! - p.atMs[0]! - pieces[i]!), p.stage).toBeLessThan(tolerance(pieces[i]!))
    })

    // The DNABERT-S bar is first drawn as its stage starts, and ended only by the `Extracting` line 13 s later: its
    // first point is when it was drawn, not when the line glued to it came.
    const bar = seen.find((s) => s.event.type === 'tqdm' && s.event.label === 'DNABERT-S extraction')!.event
    const extracting = seen.find((s) => s.event.type === 'file-start' && s.event.label === 'DNABERT-S')!.event
    const drawnBeforeMs = compressed(stampOf(stdout, 'Stage 5: DNABERT-S'), stampOf(stdout, 'Extracting DNABERT-S'))
    expect(extracting.atMs - bar.atMs).toBeGreaterThan(drawnBeforeMs - tolerance(drawnBeforeMs))
    // The CPU stages' bars: one point per count shown, from the first draw (0) to the last count.
    const bars = series.filter((p) => p.source === 'tqdm')
    expect(bars.map((p) => [p.stage, p.total, p.done])).toEqual([
      ['Sequence Chunking', 1_000, [0, 1_000]],
      ['Six-Frame Translation', 2_152, [0, 1, 2_152]],
      ['DNABERT-S Feature Extraction', 1, [0, 1]],
      ['ESM-2 Feature Extraction', 1, [0, 1]],
      ['Feature Merging', 1, [0, 1]],
    ])
    // Translation's first count came 5 s after its bar was drawn (tqdm's own elapsed time says so).
    const translation = bars[1]!
    expect(translation.atMs[1]! - translation.atMs[0]!).toBeGreaterThan(5_000 / SPEEDUP - tolerance(5_000 / SPEEDUP))

    // Read back from the log (a refit): the same series, on the log's own clock: the stamps' seconds, and a bar's
    // redraws at its first draw plus tqdm's elapsed seconds.
    const fromLog = progressFromLog(logFileLines(record.logPath!))
    expect(fromLog.map((p) => [p.stage, p.source, p.done])).toEqual(series.map((p) => [p.stage, p.source, p.done]))
    const logSpan = (source: string, stage: string) => {
      const p = fromLog.find((x) => x.source === source && x.stage === stage)!
      return p.atMs.map((t) => t - p.atMs[0]!)
    }
    expect(logSpan('file-lines', 'ESM-2 Feature Extraction')).toEqual([
      0,
      stampOf(stdout, 'Saved ESM-2') - stampOf(stdout, 'ESM-2 ready'),
    ])
    expect(logSpan('tqdm', 'Six-Frame Translation')).toEqual([0, 5_000, 5_000])
    expect(logSpan('tqdm', 'DNABERT-S Feature Extraction')).toEqual([0, 20_000])
  })
})

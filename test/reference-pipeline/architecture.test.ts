// VirNucPro's two architectures in the reference pipeline (issue 56), run for real on the CPU and read through the
// suite's own readers: the runner's log parser (its events), and the progress series a record keeps of them. v1.0
// builds ESM-2 once per split file, v2.0 once per worker; each run says which it took, in VirNucPro's words; only the
// v2.0 path reads VIRNUCPRO_DISABLE_PACKING.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createProgressCollector } from '../../src/engine/run-progress.ts'
import { generateFixture } from '../../src/input/generate.ts'
import { resolveParams } from '../../src/input/presets.ts'
import type { TargetEvent } from '../../src/pipeline/events.ts'
import { logFileLines } from '../../src/pipeline/log-file-lines.ts'
import { splitLogLine } from '../../src/pipeline/log-line.ts'
import { referenceProfile } from '../../src/pipeline/profiles.ts'
import { runTarget } from '../../src/pipeline/runner.ts'
import { referencePipelineOnCpu } from '../support/reference-pipeline.ts'

const ready = await referencePipelineOnCpu()

const ESM2 = 'ESM-2 Feature Extraction'
const DNABERT = 'DNABERT-S Feature Extraction'
/** Records per split file: the 40-record input makes several files. */
const PER_FILE = 16
const V1_LINES = ['Architecture: v1.0 (single-GPU or non-parallel mode)']
const V2_LINES = [
  'Architecture: v2.0 hybrid',
  '  ESM-2 embedding: v2.0 (async DataLoader + sequence packing)',
  '  DNABERT-S embedding: v1.0 (fast enough, v2.0 planned for v2.1)',
]
const PACKING_OFF = { VIRNUCPRO_DISABLE_PACKING: 'true' }

interface Seen {
  event: TargetEvent
  stage: string | null
}

let dir: string
let input: string
const runs = new Map<string, ReturnType<typeof measure>>()

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'refpipe-architecture-'))
  // Gene-dense records, so the embedding stages get a few dozen proteins; small ESM-2 batches, several per file.
  await generateFixture(resolveParams('TINY', { seed: 56, records: 40 }), join(dir, 'fixture'))
  input = join(dir, 'fixture', 'part-001.fa')
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** One run of the reference pipeline through the runner: every event with its stage, the progress series, the log. */
async function measure(name: string, args: string[], env: Record<string, string>) {
  const seen: Seen[] = []
  const progress = createProgressCollector()
  let stage: string | null = null
  const record = await runTarget(referenceProfile, {
    input,
    outputDir: join(dir, name),
    device: 'cpu',
    env,
    graceMs: 2_000,
    timeoutMs: 120_000,
    extraArgs: [
      '--model-scale',
      'tiny',
      '-w',
      '0',
      '--esm-batch-size',
      '512',
      '--sequences-per-file',
      `${PER_FILE}`,
      ...args,
    ],
    onEvent(event) {
      seen.push({ event, stage })
      progress.push(event, stage)
      if (event.type === 'stage-start') stage = event.name
      else if (event.type === 'stage-end') stage = null
    },
  })
  const log = [...logFileLines(record.logPath!)].map((line) => splitLogLine(line))
  return { record, seen, series: progress.series(), log }
}

/** Each configuration runs once, whichever test asks first. */
function run(name: string, args: string[] = [], env: Record<string, string> = {}) {
  if (!runs.has(name)) runs.set(name, measure(name, args, env))
  return runs.get(name)!
}

type Run = Awaited<ReturnType<typeof measure>>

/** The main process's architecture lines, as logged. */
const architectureLines = (r: Run) =>
  r.log
    .filter((l) => l.logger !== null && l.worker === null)
    .map((l) => l.message)
    .filter((m) => /^(?:Architecture: | {2}(?:ESM-2|DNABERT-S) embedding: )/.test(m))

const stageEnd = (r: Run, stage: string) =>
  r.seen.flatMap(({ event }) => (event.type === 'stage-end' && event.name === stage ? [event] : []))[0]!

/** A stage's per-file events (`Extracting`, `ready`, `Saved`) of one label, in order. */
const fileEvents = (r: Run, stage: string, label: string) =>
  r.seen.flatMap(({ event, stage: s }) =>
    s === stage &&
    (event.type === 'file-start' || event.type === 'model-ready' || event.type === 'file-done') &&
    event.label === label
      ? [event]
      : [],
  )

const batchEfficiencies = (r: Run) =>
  r.seen.flatMap(({ event, stage }) => (stage === ESM2 && event.type === 'batch' ? [event.packEfficiency] : []))

describe.skipIf(ready.state !== 'ready')("the reference pipeline's two architectures on the CPU", () => {
  test('v1.0 (one device, no --parallel): ESM-2 builds its model once per split file, in the main process', async () => {
    const r = await run('v1')
    expect(r.record.exitClass, r.record.logTail.join('\n')).toBe('completed')
    expect(architectureLines(r)).toEqual(V1_LINES)
    const files = stageEnd(r, 'Protein File Splitting').extras.files as number
    expect(files).toBeGreaterThanOrEqual(2)
    const end = stageEnd(r, ESM2).extras
    expect(end).toMatchObject({ architecture: 'v1.0', workers: 1 })

    // Per file: `Extracting`, then `ESM-2 ready` after the model it built, then `Saved`; all in the main process.
    const events = fileEvents(r, ESM2, 'ESM-2')
    expect(events.map((e) => e.type)).toEqual(
      Array.from({ length: files }, () => ['file-start', 'model-ready', 'file-done']).flat(),
    )
    expect(events.every((e) => e.worker === null)).toBe(true)
    const saved = events.flatMap((e) => (e.type === 'file-done' ? [e.sequences] : []))
    expect(saved.reduce((a, n) => a + n, 0)).toBe(end.proteins)
    expect(saved.slice(0, -1).every((n) => n === PER_FILE)).toBe(true)

    // The series a record keeps: one piece per file, and the files' size from the split's own line.
    const pieces = r.series.find((p) => p.source === 'file-lines' && p.stage === ESM2 && p.worker === null)!
    expect([pieces.atMs.length / 2, pieces.total, pieces.itemsPerFile]).toEqual([files, end.proteins, PER_FILE])
    // DNABERT-S is v1.0 too: a file at a time, with no `ready` line (VirNucPro logs none for it).
    expect(fileEvents(r, DNABERT, 'DNABERT-S').map((e) => e.type)).toEqual(
      Array.from({ length: files }, () => ['file-start', 'file-done']).flat(),
    )
  }, 120_000)

  test('v2.0 (--parallel on one device): ESM-2 in one worker process that builds its model once', async () => {
    const r = await run('v2', ['--parallel'])
    expect(r.record.exitClass, r.record.logTail.join('\n')).toBe('completed')
    expect(architectureLines(r)).toEqual(V2_LINES)
    expect(stageEnd(r, ESM2).extras).toMatchObject({ architecture: 'v2.0', workers: 1 })
    const events = fileEvents(r, ESM2, 'ESM-2')
    expect(events.map((e) => [e.type, e.worker])).toEqual([['model-ready', 0]])
    expect(batchEfficiencies(r).length).toBeGreaterThanOrEqual(3)
    // DNABERT-S stays v1.0: file by file in the main process.
    const files = stageEnd(r, 'Nucleotide File Splitting').extras.files as number
    expect(fileEvents(r, DNABERT, 'DNABERT-S').filter((e) => e.type === 'file-done')).toHaveLength(files)
  }, 120_000)

  test('v1.0 on two workers (--v1-fallback --cpu-workers 2): each builds ESM-2 once per file it was given', async () => {
    const r = await run('v1-fallback', ['--v1-fallback', '--cpu-workers', '2'])
    expect(r.record.exitClass, r.record.logTail.join('\n')).toBe('completed')
    expect(architectureLines(r)).toEqual(['Architecture: v1.0 (--v1-fallback, all stages use legacy multi-worker)'])
    expect(stageEnd(r, ESM2).extras).toMatchObject({ architecture: 'v1.0', workers: 2 })
    const files = stageEnd(r, 'Protein File Splitting').extras.files as number
    const assigned = r.seen.flatMap(({ event, stage }) =>
      stage === ESM2 && event.type === 'files-assigned' ? [event] : [],
    )
    expect(assigned.map((a) => a.worker)).toEqual([0, 1])
    expect(assigned.reduce((a, w) => a + w.files, 0)).toBe(files)
    const events = fileEvents(r, ESM2, 'ESM-2')
    for (const { worker, files: given } of assigned) {
      const own = events.filter((e) => e.worker === worker)
      expect(
        own.filter((e) => e.type === 'model-ready'),
        `worker ${worker}`,
      ).toHaveLength(given)
      expect(
        own.filter((e) => e.type === 'file-done'),
        `worker ${worker}`,
      ).toHaveLength(given)
    }
  }, 180_000)

  test('VIRNUCPRO_DISABLE_PACKING=true pads v2.0 batches in input order; v1.0 does not read it', async () => {
    // One run at a time: the integration project runs two files side by side on 2 cores.
    const packed = await run('v2', ['--parallel'])
    const unpacked = await run('v2-unpacked', ['--parallel'], PACKING_OFF)
    expect(unpacked.record.exitClass, unpacked.record.logTail.join('\n')).toBe('completed')
    const said = (r: Run) => r.log.some((l) => l.message.startsWith('ESM-2: sequence packing disabled'))
    expect([said(packed), said(unpacked)]).toEqual([false, true])
    const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length
    expect(mean(batchEfficiencies(unpacked))).toBeLessThan(mean(batchEfficiencies(packed)) - 0.05)

    const plain = await run('v1')
    const withEnv = await run('v1-env', [], PACKING_OFF)
    expect(said(withEnv)).toBe(false)
    expect(batchEfficiencies(withEnv)).toEqual(batchEfficiencies(plain))
  }, 240_000)
})

/**
 * Derives src/config/forecast-prior.json (the cost prior a first-ever invocation forecasts from: src/config/
 * forecast-prior.ts) from measured runs kept in the repository, and only from them:
 *
 * - reference pipeline, full scale, 1 x NVIDIA H200: the main job at its defaults (docs/results/2026-11-29-main-job-h200/
 *   console.log): every completed measured `[run]` line of scaling (MEDIUM, 1,000-8,000 records), e2e (TYPICAL 5,000,
 *   LARGE 10,000) and memory (MEDIUM 1,000); the structure probe (a cold first process), warm-ups and the run that
 *   ended OOM left out. Its file lines give the files that are no pipeline runs (monitor, nvml, runner) and each
 *   pipeline file's time beside its runs.
 * - reference pipeline, NVIDIA H100 80GB HBM3, the files' own times only: the main job at its defaults on one H100
 *   (docs/results/2026-12-07-main-job-h100/console.log; MAIN_JOB_H100 says why not its runs).
 * - reference pipeline, full scale, 2 x NVIDIA H200: the 2-GPU runs of test/fixtures/capacity/h200x2 (issue 24's calls
 *   G and I, MEDIUM 1,000-20,000 records).
 * - reference pipeline, full scale, NVIDIA H100 80GB HBM3, 1 and 2 GPUs: test/fixtures/capacity/h100x2 (issue 24's
 *   calls A, C and D; call B's prework runs, another configuration, left out).
 * - VirNucPro v1.0, NVIDIA H200: docs/results/2026-11-29-virnucpro-h200-held-out/call-3-json-logs.tgz, the
 *   16,000-read sample (SMALL lengths) at 2,000 / 4,000 / 8,000 and the 16,000 held-out run; ESM-2's build per file is
 *   each run's `setupMs` over its files (about 20 s).
 * - VirNucPro v1.0, NVIDIA H100 80GB HBM3: docs/results/2026-11-26-virnucpro-h100/capacity-1-GPU.json.gz (MEDIUM 1,000
 *   and 4,000: one file each); its record keeps no `setupMs`, so ESM-2's build is the time from the stage's start to
 *   its first file line.
 * - VirNucPro v2.0 (`--parallel`), NVIDIA H200: docs/results/2026-12-07-virnucpro-v2-h200/json-logs.tgz, a user's
 *   45,000 reads of 100-200 bp at 810 / 1,620 / 3,239 (its probe, a cold first process, kept apart, left out). Its
 *   ESM-2 is built once a worker: no build per file. No v2.0 run on an H100 is kept: no v2.0 cost there.
 * - the CPU stand-in (reference pipeline, tiny scale, VIRNUCPRO_BENCH_DEVICE=cpu): docs/results/2026-12-07-cpu-prior/,
 *   the gpu project's capacity test and its stage, e2e and memory files on the fake NVML, on the 2-core machine the
 *   CPU tests run on, at the CPU tests' settings (TINY, 10 records a suite input).
 *
 * Each cost is a least-squares line of wall time against the kilobases read (after VirNucPro's extra ESM-2 builds,
 * measured, are taken off), one per pipeline, scale, GPU kind, GPU count and architecture: VirNucPro's v1.0 and v2.0
 * apart (issue 56), the reference pipeline's not told apart (null: its two paths cost alike at the sizes measured).
 * ESM-2's proteins a kilobase (`perFile`) come from every VirNucPro run that counted them: v1.0's file lines, v2.0's
 * worker spans (the same proteins, read by the other path).
 * Run: `node scripts/forecast-prior.ts` prints the JSON; `--write` writes it.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { gunzipSync } from 'node:zlib'
import { FORECAST_PRIOR_FILE, type ForecastPrior, presetMeanLengthBp } from '../src/config/forecast-prior.ts'
import type { PresetName } from '../src/input/presets.ts'
import { ARCHITECTURES, type Architecture } from '../src/pipeline/architecture-line.ts'

const ROOT = resolve(import.meta.dirname, '..')
const MAIN_JOB = 'docs/results/2026-11-29-main-job-h200/console.log'
/**
 * The main job at its defaults on one H100 (v2.0 the configuration), cut by its call at 575 s in the capacity design:
 * only its files' own times are taken (monitor, nvml, runner; e2e's, memory's and stage-throughput's time beside their
 * runs). Its runs stay out: the H100's reference costs come from the capacity records below, and scaling's file line
 * never came.
 */
const MAIN_JOB_H100 = 'docs/results/2026-12-07-main-job-h100/console.log'
const H100_KIND = 'NVIDIA H100 80GB HBM3'
const CPU_RUNS = [
  { path: 'docs/results/2026-12-07-cpu-prior/scaling.log', suiteRecords: 10 },
  { path: 'docs/results/2026-12-07-cpu-prior/stage-e2e-memory.log', suiteRecords: 10 },
]
const VNP_H200 = 'docs/results/2026-11-29-virnucpro-h200-held-out/call-3-json-logs.tgz'
const VNP_H200_RECORD = './vnp-small/capacity-1-GPU.json'
const VNP_H100 = 'docs/results/2026-11-26-virnucpro-h100/capacity-1-GPU.json.gz'
const VNP_V2_H200 = 'docs/results/2026-12-07-virnucpro-v2-h200/json-logs.tgz'
const VNP_V2_H200_RECORD = './vnp-56/capacity-1-GPU-v2.0.json'
const H200X2 = ['c24g-capacity-1-GPU-2-GPUs.json.gz', 'c24i-capacity-2-GPUs-2-GPU-direct-check.json.gz'].map(
  (f) => `test/fixtures/capacity/h200x2/${f}`,
)
const H100X2 = [
  'c24a-capacity-1-GPU-1-GPU-direct-check.json.gz',
  'c24c-capacity-1-GPU-2-GPUs.json.gz',
  'c24d-capacity-1-GPU-2-GPUs.json.gz',
  'c24b-capacity-2-GPUs-2-GPU-direct-check.json.gz',
].map((f) => `test/fixtures/capacity/h100x2/${f}`)
const ESM2 = 'ESM-2 Feature Extraction'

/** One measured run: what it read, on what, and how long it took. */
export interface Observation {
  pipeline: string
  scale: string | null
  kind: string
  gpus: number
  /** VirNucPro's path (v1.0, v2.0); null for the reference pipeline, whose paths the prior does not tell apart. */
  architecture: Architecture | null
  records: number
  meanLengthBp: number
  wallMs: number
  /** ESM-2 files of VirNucPro's per-file stage and one build's ms, where the run's log shows them. */
  files: number
  buildMs: number | null
  /** ESM-2's proteins, where the run's log counts them (v1.0's file lines, v2.0's worker spans). */
  items: number | null
  source: string
}

/** A console's `[run]` line of a completed measured run: the suite, the arm, the wall time. */
const RUN_LINE = /^\[run\] (\S+) > (.+?): (run|warm-up) \d+ of (?:up to )?\d+, ([\d.]+) s(, ended \S+)?;/
/** A file's line in vitest's output: `✓  gpu  benchmarks/x.gpu.test.ts (3 tests) 24326ms`. */
const FILE_LINE = /^ [✓❯×] [ |]*gpu[ |]+(benchmarks\/\S+) .*?(\d+)ms$/

/** The suite's own input in a console's invocation: its preset and records (VIRNUCPRO_BENCH_PRESET, _RECORDS). */
interface SuiteInput {
  preset: PresetName
  records: number
}

/** What an arm of the gpu project's files read, by its label (` (cpu)` taken off): the preset and the records. */
function armSize(suite: string, arm: string, input: SuiteInput): SuiteInput | null {
  const seqs = /^1 GPU, ([\d,]+) seqs(?: direct| top-up \d+)?$/.exec(arm)
  if (suite === 'scaling' && seqs) return { preset: input.preset, records: Number(seqs[1]!.replaceAll(',', '')) }
  const e2e = /^1 GPU, (typical|large) (\d+)$/.exec(arm)
  if (suite === 'e2e' && e2e) return { preset: e2e[1] === 'typical' ? 'TYPICAL' : 'LARGE', records: Number(e2e[2]) }
  // The memory and stage suites' base configuration reads the suite's input.
  if ((suite === 'memory' || suite === 'stage-throughput') && arm === '1 GPU') return input
  return null
}

/** A console of the gpu project: its completed measured runs, and per file its time and its runs' (every run). */
export function consoleRuns(
  text: string,
  at: { pipeline: string; scale: string; kind: string; input: SuiteInput; source: string },
): { runs: Observation[]; files: Map<string, { ms: number; runsMs: number }> } {
  const runs: Observation[] = []
  const runsMs = new Map<string, number>()
  const files = new Map<string, { ms: number; runsMs: number }>()
  // A console kept as Vitest wrote it to a terminal carries its colours: the lines are read without them.
  for (const line of stripVTControlCharacters(text).split('\n')) {
    const file = FILE_LINE.exec(line)
    if (file) files.set(file[1]!, { ms: Number(file[2]), runsMs: 0 })
    const m = RUN_LINE.exec(line)
    if (!m) continue
    const [, suite, arm, phase, seconds, ended] = m
    runsMs.set(suite!, (runsMs.get(suite!) ?? 0) + Number(seconds) * 1000)
    const size = armSize(suite!, arm!.replace(/ \(cpu\)/, ''), at.input)
    if (phase !== 'run' || ended || !size) continue
    runs.push({
      pipeline: at.pipeline,
      scale: at.scale,
      kind: at.kind,
      gpus: 1,
      architecture: null,
      records: size.records,
      meanLengthBp: presetMeanLengthBp(size.preset),
      wallMs: Number(seconds) * 1000,
      files: 1,
      buildMs: null,
      items: null,
      source: at.source,
    })
  }
  for (const [file, f] of files) f.runsMs = runsMs.get(file.replace(/^benchmarks\/(.+)\.gpu\.test\.ts$/, '$1')) ?? 0
  return { runs, files }
}

interface StoredRun {
  label: string
  warmup: boolean
  config: { gpus: number[]; architecture?: string; extraArgs?: string }
  run: { wallMs: number; exitClass: string; stages?: { name: string; startMs: number }[] }
  progress?: {
    stage: string
    source: string
    worker: number | null
    total: number
    atMs: number[]
    setupMs?: number
    itemsPerFile?: number
  }[]
}
interface StoredRecord {
  provenance: { nvml: { gpus: { name: string }[] }; input: { source: { records: number; bases: number } } }
  runs: StoredRun[]
}

/**
 * The path a VirNucPro run took: its configuration's (kept since issue 56, checked against the run's `Architecture:`
 * line). A run of a record written before then was the suite's configuration of that time: 1 GPU without --parallel,
 * which VirNucPro runs as v1.0 (its `cli/predict.py`: v2.0 needs --parallel or a list of GPUs).
 */
function vnpArchitecture(run: StoredRun, source: string): Architecture {
  const kept = run.config.architecture
  if (kept !== undefined) {
    if (ARCHITECTURES.includes(kept as Architecture)) return kept as Architecture
    throw new Error(`${source}: ${run.label}: config.architecture ${JSON.stringify(kept)} is none of ${ARCHITECTURES}`)
  }
  if (run.config.gpus.length === 1 && !/(^|\s)--parallel(\s|$)/.test(run.config.extraArgs ?? '')) return 'v1.0'
  throw new Error(`${source}: ${run.label}: no config.architecture kept, and not 1 GPU without --parallel`)
}

/** ESM-2's proteins in a v2.0 run: its workers' spans summed (each worker's own share of the input). */
function esm2WorkerItems(run: StoredRun): number | null {
  const spans = run.progress?.filter((p) => p.stage === ESM2 && p.source === 'worker-span') ?? []
  return spans.length > 0 ? spans.reduce((a, p) => a + p.total, 0) : null
}

/**
 * ESM-2's files, one build's ms and its items in one VirNucPro run: v1.0's from its file lines; v2.0 builds ESM-2 once
 * a worker (one "file", no build to take off), its items from the workers' spans.
 */
function esm2Files(
  run: StoredRun,
  architecture: Architecture,
): { files: number; buildMs: number | null; items: number | null } {
  if (architecture === 'v2.0') return { files: 1, buildMs: null, items: esm2WorkerItems(run) }
  const series = run.progress?.find((p) => p.stage === ESM2 && p.source === 'file-lines' && p.worker === null)
  if (!series) return { files: 1, buildMs: null, items: null }
  const files = Math.max(1, Math.ceil(series.total / (series.itemsPerFile ?? 10_000)))
  const start = run.run.stages?.find((s) => s.name === ESM2)?.startMs
  const buildMs =
    series.setupMs !== undefined ? series.setupMs / files : start !== undefined ? series.atMs[0]! - start : null
  return { files, buildMs, items: series.total }
}

/** A record's completed measured runs (warm-ups, the probe and other configurations' runs left out). */
export function recordRuns(
  record: StoredRecord,
  at: { pipeline: string; scale: string | null; source: string },
): Observation[] {
  const source = record.provenance.input.source
  return record.runs
    .filter(
      (r) =>
        !r.warmup &&
        r.run.exitClass === 'completed' &&
        /^\d+ GPUs?, (?:v[\d.]+, )?[\d,]+ seqs(?: direct)? run \d+$/.test(r.label),
    )
    .map((r) => {
      const architecture = at.pipeline === 'virnucpro' ? vnpArchitecture(r, at.source) : null
      return {
        pipeline: at.pipeline,
        scale: at.scale,
        kind: record.provenance.nvml.gpus[0]!.name,
        gpus: r.config.gpus.length,
        architecture,
        records: Number(/, ([\d,]+) seqs/.exec(r.label)![1]!.replaceAll(',', '')),
        meanLengthBp: source.bases / source.records,
        wallMs: r.run.wallMs,
        ...(architecture ? esm2Files(r, architecture) : { files: 1, buildMs: null, items: null }),
        source: at.source,
      }
    })
}

/** Least squares of y against x: intercept and slope. */
function line(points: readonly { x: number; y: number }[]): { intercept: number; slope: number } {
  const n = points.length
  const mx = points.reduce((a, p) => a + p.x, 0) / n
  const my = points.reduce((a, p) => a + p.y, 0) / n
  const sxx = points.reduce((a, p) => a + (p.x - mx) ** 2, 0)
  const slope = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0) / sxx
  return { intercept: my - slope * mx, slope }
}

const round = (x: number, digits: number) => Number(x.toFixed(digits))
const count = (x: number) => x.toLocaleString('en-US')

/** One cost from a group's runs: the builds past a run's first file (measured) taken off, then a line through kb. */
function costOf(group: Observation[]): ForecastPrior['costs'][number] {
  const [first] = group
  const builds = group.filter((o) => o.buildMs !== null).map((o) => o.buildMs!)
  const buildMs = builds.length > 0 ? builds.reduce((a, b) => a + b, 0) / builds.length : null
  const fit = line(
    group.map((o) => ({ x: (o.records * o.meanLengthBp) / 1000, y: o.wallMs - (buildMs ?? 0) * (o.files - 1) })),
  )
  const sizes = group.map((o) => o.records)
  return {
    pipeline: first!.pipeline,
    scale: first!.scale,
    kind: first!.kind,
    gpus: first!.gpus,
    architecture: first!.architecture,
    startMs: round(Math.max(0, fit.intercept), 0),
    perKbMs: round(Math.max(0, fit.slope), 3),
    buildPerFileMs: buildMs === null ? null : round(buildMs, 0),
    from: `${[...new Set(group.map((o) => o.source))].join(', ')}: ${group.length} runs, ${count(Math.min(...sizes))}-${count(Math.max(...sizes))} records`,
  }
}

function gz(path: string): StoredRecord {
  return JSON.parse(gunzipSync(readFileSync(join(ROOT, path))).toString('utf8')) as StoredRecord
}

function fromTgz(path: string, member: string): StoredRecord {
  return JSON.parse(execFileSync('tar', ['-xzOf', join(ROOT, path), member], { encoding: 'utf8', maxBuffer: 1 << 28 }))
}

/** Per file time beside its runs, or as a whole for files with no runs of a plan, from a console's file lines. */
function fileTimes(files: Map<string, { ms: number; runsMs: number }>, kind: string, source: string) {
  const FIXED = ['benchmarks/monitor.gpu.test.ts', 'benchmarks/nvml.gpu.test.ts', 'benchmarks/runner.gpu.test.ts']
  const fixed = [...files]
    .filter(([f]) => FIXED.includes(f))
    .map(([file, t]) => ({ kind, file, ms: t.ms, from: source }))
  const overhead = [...files]
    .filter(([f, t]) => !FIXED.includes(f) && (t.runsMs > 0 || f.endsWith('stage-throughput.gpu.test.ts')))
    .map(([file, t]) => ({
      kind,
      file,
      ms: round(Math.max(0, t.ms - t.runsMs), 0),
      from: `${source}: the file's time less its runs'`,
    }))
  return { fixed, overhead }
}

/** The prior, derived (see the file's comment), and the runs it was derived from. */
export function derivePrior(): ForecastPrior {
  return derive().prior
}

/** A console of the main job at its defaults on one GPU of `kind`: the suite preset MEDIUM at its own 1,000 records. */
const mainJobConsole = (path: string, kind: string) =>
  consoleRuns(readFileSync(join(ROOT, path), 'utf8'), {
    pipeline: 'reference',
    scale: 'full',
    kind,
    input: { preset: 'MEDIUM', records: 1_000 },
    source: path,
  })

export function derive(): { prior: ForecastPrior; observations: Observation[] } {
  const main = mainJobConsole(MAIN_JOB, 'NVIDIA H200')
  // The CPU tests' settings: TINY at 10 records, the tiny model (test/engine/support/cpu-campaign.ts).
  const cpuLogs = CPU_RUNS.map((c) =>
    consoleRuns(readFileSync(join(ROOT, c.path), 'utf8'), {
      pipeline: 'reference',
      scale: 'tiny',
      kind: 'CPU',
      input: { preset: 'TINY', records: c.suiteRecords },
      source: c.path,
    }),
  )
  const cpu = {
    runs: cpuLogs.flatMap((c) => c.runs),
    files: new Map(cpuLogs.flatMap((c) => [...c.files])),
    source: CPU_RUNS.map((c) => c.path).join(', '),
  }
  const reference = (paths: string[]) =>
    paths.flatMap((p) => recordRuns(gz(p), { pipeline: 'reference', scale: 'full', source: p }))
  const vnpH200 = recordRuns(fromTgz(VNP_H200, VNP_H200_RECORD), {
    pipeline: 'virnucpro',
    scale: null,
    source: VNP_H200,
  })
  const vnpH100 = recordRuns(gz(VNP_H100), { pipeline: 'virnucpro', scale: null, source: VNP_H100 })
  const vnpV2H200 = recordRuns(fromTgz(VNP_V2_H200, VNP_V2_H200_RECORD), {
    pipeline: 'virnucpro',
    scale: null,
    source: VNP_V2_H200,
  })
  const observations = [
    ...main.runs,
    ...reference(H200X2).filter((o) => o.gpus === 2),
    ...reference(H100X2),
    ...vnpH200,
    ...vnpH100,
    ...vnpV2H200,
    ...cpu.runs,
  ]
  const groups = new Map<string, Observation[]>()
  for (const o of observations) {
    const key = [o.pipeline, o.scale, o.kind, o.gpus, o.architecture].join('|')
    groups.set(key, [...(groups.get(key) ?? []), o])
  }
  // Proteins a kilobase makes, from the runs that counted ESM-2's (a path's own count: v1.0's file lines, v2.0's worker
  // spans); short reads make many more a kilobase (six frames of each read, however short).
  const itemsPoint = (all: Observation[], source: string) => {
    const runs = all.filter((o) => o.items !== null)
    if (runs.length === 0) throw new Error(`${source}: no run counts ESM-2's proteins`)
    const kb = runs.reduce((a, o) => a + (o.records * o.meanLengthBp) / 1000, 0)
    return {
      meanLengthBp: round(runs[0]!.meanLengthBp, 1),
      itemsPerKb: round(runs.reduce((a, o) => a + o.items!, 0) / kb, 3),
      from: `${source}: ESM-2's proteins over the kilobases read, ${runs.length} runs`,
    }
  }
  const mainFiles = fileTimes(main.files, 'NVIDIA H200', MAIN_JOB)
  const h100Files = fileTimes(mainJobConsole(MAIN_JOB_H100, H100_KIND).files, H100_KIND, MAIN_JOB_H100)
  const cpuFiles = fileTimes(cpu.files, 'CPU', cpu.source)
  const prior: ForecastPrior = {
    format: 1,
    costs: [...groups.values()].map(costOf),
    perFile: [
      {
        pipeline: 'virnucpro',
        stage: ESM2,
        itemsPerFile: 10_000,
        itemsPerKb: [itemsPoint(vnpV2H200, VNP_V2_H200), itemsPoint(vnpH200, VNP_H200), itemsPoint(vnpH100, VNP_H100)],
      },
    ],
    fixedFiles: [...mainFiles.fixed, ...h100Files.fixed, ...cpuFiles.fixed],
    fileOverhead: [...mainFiles.overhead, ...h100Files.overhead, ...cpuFiles.overhead],
  }
  return { prior, observations }
}

if (import.meta.main) {
  const text = `${JSON.stringify(derivePrior(), null, 2)}\n`
  if (process.argv.includes('--write')) writeFileSync(FORECAST_PRIOR_FILE, text)
  else process.stdout.write(text)
}

/**
 * A synthetic capacity target of known parts and noise, for the sequential design's tests: each run is the time
 * outside every stage (start-up, constant, its own small jitter) plus one stage of fixed start-up and per-sequence
 * work, which a host slowdown scales whole (noise proportional to the stage's time). Runs are built as the suite's
 * observations (completed runs with their stage spans), so the real analysis (analyzeCapacity, the size model, the
 * support checks) reads them as it reads a pipeline's.
 */

import type { ConfigMeasurements } from '../../../src/capacity/analyze.ts'
import type { MeasuredConfiguration } from '../../../src/engine/measure-configuration.ts'
import type { RunObservation } from '../../../src/engine/observe-run.ts'
import type { ResolvedInput } from '../../../src/input/resolver.ts'
import type { RandomSource } from '../../../src/measure/rng.ts'
import { standardNormal } from '../../measure/support/simulate.ts'

export const STAGE = 'Six-Frame Translation'

export interface SyntheticTarget {
  /** Time outside every stage (ms) and its run-to-run sd (ms). */
  outsideMs: number
  outsideSdMs: number
  /** The stage's start-up (ms) and its work: ms for x sequences (a line, or a curve). */
  stageFixedMs: number
  workMs: (sequences: number) => number
  /** The stage's run-to-run spread, relative to its time (a host slowdown scales the whole stage). */
  stageCv: number
  /**
   * A model built once per file before the file's work (VirNucPro's v1 ESM-2): items a sequence, the files' size, and
   * each build's mean and sd (ms, drawn per file). With it a run logs its files as the pipeline does (progress
   * `file-lines`: each file from its model's `ready` to its `Saved`, the builds and the split's size).
   */
  perFile?: { itemsPerSequence: number; itemsPerFile: number; buildMs: number; buildSdMs: number }
  /**
   * The stage the work is logged as (default STAGE). A CPU stage's part is shared by every configuration measured
   * together while their fits agree (capacity/shared.ts): arms whose work differs by GPU count name a GPU stage.
   */
  stage?: string
}

/** Files a run of `sequences` makes (1 without builds per file). */
const filesOf = (t: SyntheticTarget, sequences: number) =>
  t.perFile ? Math.max(1, Math.ceil((t.perFile.itemsPerSequence * sequences) / t.perFile.itemsPerFile)) : 1

/** The true wall time of a run of `sequences` (no noise). */
export const trueWallMs = (t: SyntheticTarget, sequences: number) =>
  t.outsideMs + t.stageFixedMs + t.workMs(sequences) + (t.perFile ? t.perFile.buildMs * filesOf(t, sequences) : 0)

/** One completed run of `t` at `sequences`, drawn with `random`. */
export function syntheticRun(
  t: SyntheticTarget,
  sequences: number,
  random: RandomSource,
  warmup = false,
): RunObservation {
  const outside = Math.max(1, t.outsideMs + t.outsideSdMs * standardNormal(random))
  const scale = Math.max(0.1, 1 + t.stageCv * standardNormal(random))
  const fixedMs = t.stageFixedMs * scale
  const workMs = t.workMs(sequences) * scale
  const files = filesOf(t, sequences)
  const builds = Array.from({ length: t.perFile ? files : 0 }, () =>
    Math.max(0, t.perFile!.buildMs + t.perFile!.buildSdMs * standardNormal(random)),
  )
  const stageMs = fixedMs + workMs + builds.reduce((a, b) => a + b, 0)
  return {
    measured: {
      label: `${sequences}`,
      config: {},
      warmup,
      gpu: null,
      ...(t.perFile && {
        progress: [fileLines(t.stage ?? STAGE, t.perFile, sequences, outside + fixedMs, builds, workMs)],
      }),
      run: {
        exitClass: 'completed',
        wallMs: outside + stageMs,
        stages: [
          {
            index: 1,
            name: t.stage ?? STAGE,
            startMs: outside,
            endMs: outside + stageMs,
            receivedDurationMs: stageMs,
            logDurationS: stageMs / 1000,
            summaryDurationS: null,
            skippedReason: null,
            extras: {},
          },
        ],
      },
    },
  } as unknown as RunObservation
}

/** A run's file lines: each file its build, then its share of the work, items counted as the pipeline saves them. */
function fileLines(
  stage: string,
  perFile: NonNullable<SyntheticTarget['perFile']>,
  sequences: number,
  startMs: number,
  builds: readonly number[],
  workMs: number,
) {
  const items = Math.round(perFile.itemsPerSequence * sequences)
  const atMs: number[] = []
  const done: number[] = []
  let t = startMs
  let before = 0
  for (const buildMs of builds) {
    const inFile = Math.min(perFile.itemsPerFile, items - before)
    t += buildMs
    atMs.push(t)
    done.push(before)
    t += (workMs * inFile) / items
    before += inFile
    atMs.push(t)
    done.push(before)
  }
  return {
    stage,
    source: 'file-lines' as const,
    worker: null,
    total: items,
    lines: 2 * builds.length,
    atMs,
    done,
    setupMs: builds.reduce((a, b) => a + b, 0),
    itemsPerFile: perFile.itemsPerFile,
  }
}

/** A measurement of `runs` runs at `sequences` (and `warmups` warm-ups first). */
export function syntheticMeasurement(
  t: SyntheticTarget,
  sequences: number,
  runs: number,
  random: RandomSource,
  warmups = 0,
): MeasuredConfiguration {
  return {
    config: { label: `1 GPU, ${sequences}` },
    observations: [
      ...Array.from({ length: warmups }, () => syntheticRun(t, sequences, random, true)),
      ...Array.from({ length: runs }, () => syntheticRun(t, sequences, random)),
    ],
    stop: 'run-budget',
    failure: null,
    reusedRuns: 0,
  } as unknown as MeasuredConfiguration
}

/** A nested input of `records` records (one record = one sequence of the source's work) of a source of `sourceRecords`. */
export function syntheticInput(records: number, sourceRecords: number): ResolvedInput {
  return {
    records,
    workRelativeDifference: 0,
    file: `in-${records}.fa`,
    kind: records >= sourceRecords ? 'full' : 'subset',
    source: { source: 'user', records: sourceRecords, path: 'sample.fa', sha256: 'synthetic' },
  } as unknown as ResolvedInput
}

/** One configuration (1 GPU) measured as planned: `runs` runs at each size, one warm-up at the smallest first. */
export function plannedMeasurements(
  t: SyntheticTarget,
  sizes: readonly number[],
  runs: number,
  random: RandomSource,
): ConfigMeasurements[] {
  return plannedArms([{ label: '1 GPU', gpuCount: 1, target: t }], sizes, runs, random)
}

/** One configuration of a host's measurement: its label, the GPUs it uses, and the target its runs are drawn from. */
export interface SyntheticArm {
  label: string
  gpuCount: number
  target: SyntheticTarget
}

/** Every arm measured as planned, as the suite interleaves them: each size's runs, one warm-up an arm at the smallest. */
export function plannedArms(
  arms: readonly SyntheticArm[],
  sizes: readonly number[],
  runs: number,
  random: RandomSource,
): ConfigMeasurements[] {
  return arms.map((a) => ({
    config: { label: a.label } as ConfigMeasurements['config'],
    gpuCount: a.gpuCount,
    bySize: sizes.map((s, i) => syntheticMeasurement(a.target, s, runs, random, i === 0 ? 1 : 0)),
  }))
}

/** The per-sequence cost of VirNucPro's single-GPU path as seen on an H100 (issue 31): 6.1 ms a sequence. */
export const LINEAR: SyntheticTarget = {
  outsideMs: 20_000,
  outsideSdMs: 500,
  stageFixedMs: 40_000,
  workMs: (x) => 6.1 * x,
  stageCv: 0.02,
}

/**
 * A per-sequence cost that grows with size as VirNucPro's did (issue 31): 6.1 ms a sequence from 1,000 to 4,000
 * records, 7.2 from 4,000 to 20,000. Work = x (b0 + beta ln(x / 1,000)), b0 and beta solved from those two chords.
 */
export const CURVED: SyntheticTarget = (() => {
  const k = (a: number, b: number) => (b * Math.log(b / 1000) - a * Math.log(a / 1000)) / (b - a)
  const beta = (7.2 - 6.1) / (k(4_000, 20_000) - k(1_000, 4_000))
  const b0 = 6.1 - beta * k(1_000, 4_000)
  return { ...LINEAR, workMs: (x: number) => x * (b0 + beta * Math.log(x / 1000)) }
})()

/**
 * VirNucPro's single-GPU path with its builds per file, as a 2 x H100 host showed it (issue 31, 2026-11-27): 25 s
 * outside its stages, ESM-2 building its 3B model for 33 s (sd 3 s) in every file of 10,000 proteins at 1.6 proteins
 * a sequence, and 12 ms a sequence of other work: 6 M sequences in 28.8 h, 8.8 h of it builds.
 */
export const PER_FILE: SyntheticTarget = {
  outsideMs: 25_000,
  outsideSdMs: 500,
  stageFixedMs: 3_000,
  workMs: (x) => 12 * x,
  stageCv: 0.02,
  perFile: { itemsPerSequence: 1.6, itemsPerFile: 10_000, buildMs: 33_000, buildSdMs: 3_000 },
}

/**
 * VirNucPro's 2-GPU path (v2: ESM-2 workers that load their model once, DNABERT-S workers given a few reads a batch)
 * as the same host showed it (issue 31, 2026-11-27; refit in docs/results/2026-11-27-virnucpro-h100x2): about 88 s a
 * run whatever its size (worker start-up and model loads), 20.8 ms a sequence, and a spread that grows with the work:
 * 109.7 / 111.8 s at 1,000 records, 184.3 / 158.6 s at 3,750, mostly DNABERT-S (81.9 / 67.8 s) and ESM-2 (76.3 /
 * 66.2 s). One pair at each size is all there is to calibrate on: a spread of 17% of the per-sequence work, pooled
 * over both pairs (their differences are 10% and 33% of 20.8 and 78 s of work; sd = difference / sqrt 2).
 */
export const V2_TWO_GPUS: SyntheticTarget = {
  stage: 'DNABERT-S Feature Extraction',
  outsideMs: 85_000,
  outsideSdMs: 1_000,
  stageFixedMs: 3_000,
  workMs: (x) => 20.8 * x,
  stageCv: 0.17,
}

/**
 * A twin where small sizes mislead (issue 48), VirNucPro's 1-GPU path as the H200 runs of 2026-11-29 showed it: 25 s of
 * start-up that does not grow with the input, the 3B ESM-2 built for 20 s (17-24 s: sd 2.3 s) in every file of 10,000
 * proteins at 1.6 proteins a sequence, and a cost per sequence that halves between 1,000 and 20,000 sequences (batches
 * fill, 10 ms a sequence at first, 5 ms from 20,000 on; the rate falls with the log of the size between), with a 3%
 * host slowdown run to run. At 1,000-4,000 sequences every run is one file and pays 8-10 ms a sequence; 6 M pays 5.
 */
export const FILLING: SyntheticTarget = (() => {
  const c0 = 10
  const k = 0.5 / Math.log(20)
  const at20k = c0 * 1_000 + c0 * (19_000 - k * (20_000 * Math.log(20) - 20_000 + 1_000))
  const workMs = (x: number) => {
    if (x <= 1_000) return c0 * x
    if (x <= 20_000) return c0 * 1_000 + c0 * (x - 1_000 - k * (x * Math.log(x / 1_000) - x + 1_000))
    return at20k + (c0 / 2) * (x - 20_000)
  }
  return {
    outsideMs: 25_000,
    outsideSdMs: 500,
    stageFixedMs: 3_000,
    workMs,
    stageCv: 0.03,
    perFile: { itemsPerSequence: 1.6, itemsPerFile: 10_000, buildMs: 20_000, buildSdMs: 2_300 },
  }
})()

/**
 * FILLING with a regime change above every size a design can fit (20,000 sequences: host memory fills, embeddings
 * spill): from there each sequence costs 15 ms, three times FILLING's 5. No fit below it can see it; a held-out run
 * above it does.
 */
export const SPILLING: SyntheticTarget = {
  ...FILLING,
  workMs: (x: number) => FILLING.workMs(Math.min(x, 20_000)) + 15 * Math.max(0, x - 20_000),
}

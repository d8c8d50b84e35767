/**
 * One capacity record's configurations and comparisons as rows of the capacity report: per configuration a cell per
 * size (the largest measured, then each projected one) with its wall time, speedup and verdicts, and per GPU stage its
 * start-up (fixed cost) and steady state. Every figure is the record's own, every verdict read by its id
 * (src/capacity/verdicts.ts): the report projects nothing, so it never disagrees with the record.
 */
import type { SizeEstimate } from '../measure/index.ts'
import type { Verdict, VerdictValue } from '../results/schema/index.ts'
import type { ComparisonCapacity, ConfigCapacity, StageCapacity } from './index.ts'

/** A figure with its CI (null: none, e.g. one run at a size). */
export interface Figure {
  value: number
  ci: { low: number; high: number } | null
}

export interface StageCell {
  stage: string
  utilPct: Figure | null
  verdict: VerdictValue | null
}

export interface CapacityCell {
  sequences: number
  wallMs: Figure | null
  perf01: VerdictValue | null
  /** Against the 1-GPU configuration; null for that configuration itself and where it has no model. */
  speedup: Figure | null
  efficiency: Figure | null
  speedupVerdict: VerdictValue | null
  /** PERF-02 projected to this size, per GPU stage. */
  perf02: StageCell[]
  /** PERF-03 (its stage's speedup) at this size; null where the record judged none. */
  perf03: { speedup: Figure; verdict: VerdictValue | null } | null
}

/** A GPU stage as fixed cost (start-up before the GPU's first work) and steady state (after it). */
export interface StageParts {
  stage: string
  /** Median over the runs at the largest size, ms; null where the monitor saw no onset. */
  startupMs: Figure | null
  /** Utilization after the GPU's first work (PERF-02 steady state), median over those runs. */
  steadyUtilPct: Figure | null
  steadyVerdict: VerdictValue | null
  /** The stage's size model: fixed part and per-sequence part. */
  fixedMs: Figure
  msPerSequence: Figure
  /** Utilization the stage tends to as the input grows without bound. */
  asymptoticUtilPct: Figure | null
}

export interface CapacityConfigRow {
  label: string
  gpuCount: number
  measured: { records: number; sequences: number; runs: number; medianWallMs: number }[]
  wallFixedMs: Figure
  wallMsPerSequence: Figure
  /** One per column of the entry, in its order. */
  cells: CapacityCell[]
  stages: StageParts[]
  ciProblem: string | null
}

/** Sequences from which k GPUs beat 1; `null` means never (the record's Infinity, which JSON stores as null). */
export interface BreakEven {
  sequences: number | null
  ci: { low: number | null; high: number | null } | null
}

export interface CapacityComparisonRow {
  gpuCount: number
  baseline: string
  candidate: string
  breakEven: BreakEven
  breakEvenVerdict: VerdictValue | null
  asymptoticSpeedup: Figure | null
  asymptoticVerdict: VerdictValue | null
}

/** A stored estimate as a Figure; null where JSON turned a non-finite estimate into null. */
export function figureOf(e: SizeEstimate | null | undefined): Figure | null {
  if (!e || typeof e.estimate !== 'number' || !Number.isFinite(e.estimate)) return null
  const ci = e.ci
  const finite = ci && Number.isFinite(ci.low) && Number.isFinite(ci.high)
  return { value: e.estimate, ci: finite ? { low: ci.low, high: ci.high } : null }
}

const orZero = (e: SizeEstimate | null | undefined): Figure => figureOf(e) ?? { value: 0, ci: null }
const finiteOrNever = (x: number | null | undefined) => (typeof x === 'number' && Number.isFinite(x) ? x : null)

function breakEvenOf(e: SizeEstimate): BreakEven {
  return {
    sequences: finiteOrNever(e.estimate),
    ci: e.ci ? { low: finiteOrNever(e.ci.low), high: finiteOrNever(e.ci.high) } : null,
  }
}

/** Sizes are sequence-equivalents (fractions for measured subsets): matched to a relative 1e-9. */
const sameSize = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b))

/** Reads the record's verdicts by id. `measured`: the size its ids name `measured`. */
export function verdictReader(verdicts: readonly Verdict[], measured: number) {
  const byId = new Map(verdicts.map((v) => [v.id, v.verdict]))
  const where = (sequences: number) => (sameSize(sequences, measured) ? 'measured' : String(sequences))
  return {
    at: (gpuCount: number, what: string, sequences: number) =>
      byId.get(`capacity/${gpuCount}/${what}/${where(sequences)}`) ?? null,
    get: (id: string) => byId.get(id) ?? null,
  }
}
type Verdicts = ReturnType<typeof verdictReader>

function stageParts(c: ConfigCapacity, s: StageCapacity, v: Verdicts): StageParts {
  const stat = (x: StageCapacity['startupMs']): Figure | null =>
    x ? { value: x.median, ci: x.ci ? { low: x.ci.low, high: x.ci.high } : null } : null
  return {
    stage: s.stage,
    startupMs: stat(s.startupMs),
    steadyUtilPct: stat(s.steadyUtilPct),
    steadyVerdict: v.get(`capacity/${c.gpuCount}/perf02/${s.stage}/steady`),
    fixedMs: orZero(s.fixedMs),
    msPerSequence: orZero(s.msPerSequence),
    asymptoticUtilPct: figureOf(s.asymptoticUtilPct),
  }
}

function cellOf(c: ConfigCapacity, cmp: ComparisonCapacity | null, sequences: number, v: Verdicts): CapacityCell {
  const at = c.at.find((a) => sameSize(a.sequences, sequences))
  const vs = cmp?.at.find((a) => sameSize(a.sequences, sequences))
  const perf03 = cmp?.perf03.find((a) => sameSize(a.sequences, sequences))
  const perf03Speedup = figureOf(perf03?.speedup)
  return {
    sequences,
    wallMs: figureOf(at?.wallMs),
    perf01: at ? v.at(c.gpuCount, 'perf01', sequences) : null,
    speedup: figureOf(vs?.speedup),
    efficiency: figureOf(vs?.efficiency),
    speedupVerdict: vs ? v.at(c.gpuCount, 'speedup', sequences) : null,
    perf02: c.stages.map((s) => {
      const u = s.utilAt.find((x) => sameSize(x.sequences, sequences))
      return {
        stage: s.stage,
        utilPct: figureOf(u?.utilPct),
        verdict: u ? v.at(c.gpuCount, `perf02/${s.stage}`, sequences) : null,
      }
    }),
    perf03: perf03Speedup ? { speedup: perf03Speedup, verdict: v.at(c.gpuCount, 'perf03', sequences) } : null,
  }
}

/** One configuration's row; `cmp` is its comparison with 1 GPU (null for the baseline). */
export function configRow(
  c: ConfigCapacity,
  cmp: ComparisonCapacity | null,
  columns: readonly number[],
  v: Verdicts,
): CapacityConfigRow {
  return {
    label: c.label,
    gpuCount: c.gpuCount,
    measured: c.sizes.map((s) => ({ ...s })),
    wallFixedMs: orZero(c.wall.fixedMs),
    wallMsPerSequence: orZero(c.wall.msPerSequence),
    cells: columns.map((sequences) => cellOf(c, cmp, sequences, v)),
    stages: c.stages.map((s) => stageParts(c, s, v)),
    ciProblem: c.ciProblem,
  }
}

export function comparisonRow(cmp: ComparisonCapacity, v: Verdicts): CapacityComparisonRow {
  return {
    gpuCount: cmp.gpuCount,
    baseline: cmp.baseline,
    candidate: cmp.candidate,
    breakEven: breakEvenOf(cmp.breakEvenSequences),
    breakEvenVerdict: v.get(`capacity/${cmp.gpuCount}/break-even`),
    asymptoticSpeedup: figureOf(cmp.asymptoticSpeedup),
    asymptoticVerdict: v.get(`capacity/${cmp.gpuCount}/speedup/asymptotic`),
  }
}

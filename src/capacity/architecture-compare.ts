/**
 * VirNucPro's v2.0 path against its v1.0 path on the same GPUs (issue 56): `v2.0 against v1.0 at 6 M on 1 GPU: 4.3x
 * [3.9, 4.8] against 4.0x (target 4.5x)`, judged against its phase-10 claim (thresholds `architecture`). Each side is
 * a full capacity answer of its own (its own plan, design and held-out check: a v1.0 path's cost per file shows at
 * other sizes than v2.0's per worker), so the ratio is read from the two answers' projections at the same size, as
 * independent estimates: each interval is read back as a spread on the log scale at its own level, the two combined,
 * and the ratio judged once at 95%. A side without an interval gives none; a side that is not FINAL makes the
 * comparison say so (it reads no firmer than its weaker answer).
 */

import { DECISION } from '../config/capacity-targets.ts'
import type { Thresholds } from '../config/thresholds.ts'
import { normalQuantile } from '../measure/distributions.ts'
import { type DecisionState, decideInterval } from '../measure/index.ts'
import type { CapacityAnswer, Figure, GpuAnswer } from './answer.ts'

/** The level a comparison of two answers is judged at: once, at the end. */
const LEVEL = 0.95

/** One answer as a comparison reads it: its record, its status and figures. */
export interface AnswerOfRecord {
  recordId: string
  answer: CapacityAnswer
}

export interface ArchitectureComparison {
  gpuCount: number
  sequences: number
  /** `v2.0` and its configuration's label, and the record it was read from; the same for the baseline. */
  candidate: { architecture: string; label: string; recordId: string; statusText: string }
  baseline: { architecture: string; label: string; recordId: string; statusText: string }
  /** Baseline hours over candidate hours (2.0x: twice as fast), at 95%; null where a side has no figure. */
  speedup: Figure | null
  threshold: number
  target: number
  state: DecisionState | null
  /** Why there is no verdict, where there is none. */
  why: string | null
}

/** The architecture a GPU count's answer ran: its configuration's, else read from its label (`1 GPU, v2.0`). */
export function architectureOfAnswer(g: Pick<GpuAnswer, 'architecture' | 'label'>): string | null {
  return g.architecture ?? /, (v\d+(?:\.\d+)*)\b/.exec(g.label)?.[1] ?? null
}

/** An interval's spread on the log scale at `level` (null without a positive interval). */
function logSpread(f: Figure, level: number): number | null {
  if (f.low === null || f.high === null || !(f.low > 0) || !(f.high > 0)) return null
  return (Math.log(f.high) - Math.log(f.low)) / (2 * normalQuantile(0.5 + level / 2))
}

/** Baseline over candidate, with a 95% interval from the two spreads; null without both figures. */
export function ratioOf(
  baseline: Figure | null,
  candidate: Figure | null,
  levels: [number, number],
): { figure: Figure | null; why: string | null } {
  if (!baseline || !candidate) return { figure: null, why: 'a side has no projection at this size' }
  const value = baseline.value / candidate.value
  const [sb, sc] = [logSpread(baseline, levels[0]), logSpread(candidate, levels[1])]
  if (sb === null || sc === null)
    return {
      figure: { value, low: null, high: null },
      why: 'a side has no interval above zero at this size, so the ratio has none',
    }
  const half = normalQuantile(0.5 + LEVEL / 2) * Math.hypot(sb, sc)
  return { figure: { value, low: value * Math.exp(-half), high: value * Math.exp(half) }, why: null }
}

/**
 * Every comparison of a v2.0 answer with a v1.0 answer of the same GPU count, at each target size (45 K, 6 M): what
 * the answers of one run directory (or one refit) hold. A GPU count one side lacks is not compared.
 */
export function compareArchitectures(
  answers: readonly AnswerOfRecord[],
  t: Pick<Thresholds, 'architecture'>,
): ArchitectureComparison[] {
  const sides = answers.flatMap(({ recordId, answer }) =>
    answer.gpus.map((g) => ({ recordId, answer, g, architecture: architectureOfAnswer(g) })),
  )
  const out: ArchitectureComparison[] = []
  for (const v2 of sides.filter((s) => s.architecture === 'v2.0'))
    for (const v1 of sides.filter((s) => s.architecture === 'v1.0' && s.g.gpuCount === v2.g.gpuCount)) {
      for (const [sequences, pick] of [
        [v2.answer.typical, (g: GpuAnswer) => g.typicalH],
        [v2.answer.production, (g: GpuAnswer) => g.productionH],
      ] as const) {
        const levels: [number, number] = [v1.answer.levelPct / 100, v2.answer.levelPct / 100]
        const { figure, why } = ratioOf(pick(v1.g), pick(v2.g), levels)
        const { minSpeedup: threshold, targetSpeedup: target } = t.architecture
        const state =
          figure && figure.low !== null && figure.high !== null
            ? decideInterval({ low: figure.low, high: figure.high }, threshold, 'at-least', DECISION.margin)
            : null
        const side = (s: typeof v2) => ({
          architecture: s.architecture!,
          label: s.g.label,
          recordId: s.recordId,
          statusText: s.answer.statusText,
        })
        out.push({
          gpuCount: v2.g.gpuCount,
          sequences,
          candidate: side(v2),
          baseline: side(v1),
          speedup: figure,
          threshold,
          target,
          state,
          why,
        })
      }
    }
  return out
}

const millions = (n: number) => (n >= 1e6 ? `${n / 1e6} M` : n >= 1e3 ? `${n / 1e3} K` : String(n))
const x = (f: Figure) =>
  `${f.value.toFixed(2)}x${f.low !== null && f.high !== null ? ` [${f.low.toFixed(2)}, ${f.high.toFixed(2)}]` : ''}`
const WORDS: Readonly<Record<DecisionState, string>> = {
  pass: 'PASS',
  fail: 'FAIL',
  'at-threshold': 'AT THRESHOLD',
  undecided: 'UNDECIDED',
}

/**
 * `v2.0 against v1.0 at 6 M on 1 GPU: 4.31x [3.92, 4.74] against 4.0x (target 4.5x): PASS`, with each side's status
 * where it is not FINAL (the comparison is no firmer than its answers).
 */
export function architectureLine(c: ArchitectureComparison): string {
  const head = `${c.candidate.architecture} against ${c.baseline.architecture} at ${millions(c.sequences)} on ${c.gpuCount} GPU${c.gpuCount === 1 ? '' : 's'}`
  const figure = c.speedup ? x(c.speedup) : 'not measured'
  const verdict = c.state ? WORDS[c.state] : `no verdict: ${c.why ?? 'no interval'}`
  const weaker = [c.candidate, c.baseline].filter((s) => !s.statusText.startsWith('FINAL'))
  const caveat =
    weaker.length > 0
      ? ` (read from ${weaker.map((s) => `the ${s.architecture} answer, ${s.statusText}`).join(', and ')})`
      : ''
  return `${head}: ${figure} against ${c.threshold}x (target ${c.target}x): ${verdict}${caveat}`
}

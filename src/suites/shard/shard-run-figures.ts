/**
 * The throughput figures of one completed run, as a shard record states them and the fleet report compares hosts by:
 * sequences per second of wall time, tokens per second of the embedding stages, energy and joules per sequence. Pure.
 */

import { stageRunFigures } from '../../engine/stage-metrics.ts'
import type { MeasuredRun } from '../../results/schema/index.ts'

export interface RunThroughput {
  wallMs: number
  /** Sequences the pipeline said it processed (its summary), else the chunking stage's count; null when neither. */
  sequences: number | null
  sequencesPerS: number | null
  /** Tokens of `gpuStages` over the sum of their durations; null when those stages logged no tokens. */
  tokensPerS: number | null
  /** The monitor's energy over the run (all sampled GPUs); null without a monitor or an energy counter. */
  energyJ: number | null
  jPerSequence: number | null
}

/** Figures of a run that completed; null for one that did not (it measured no throughput). */
export function runThroughput(m: MeasuredRun, gpuStages: readonly string[]): RunThroughput | null {
  const run = m.run
  if (run.exitClass !== 'completed' || !(run.wallMs > 0)) return null
  const figures = stageRunFigures(run)
  const chunking = figures.find((f) => f.stage === 'Sequence Chunking')?.items ?? null
  const sequences = run.summary?.sequencesProcessed ?? chunking
  let tokens = 0
  let tokenMs = 0
  for (const f of figures)
    if (gpuStages.includes(f.stage) && f.tokens !== null && f.durationMs) {
      tokens += f.tokens
      tokenMs += f.durationMs
    }
  const energyJ = m.gpu?.energy.totalJ ?? null
  return {
    wallMs: run.wallMs,
    sequences,
    sequencesPerS: sequences === null ? null : (sequences * 1000) / run.wallMs,
    tokensPerS: tokenMs > 0 ? (tokens * 1000) / tokenMs : null,
    energyJ,
    jPerSequence: m.gpu?.energy.jPerSequence ?? (energyJ !== null && sequences ? energyJ / sequences : null),
  }
}

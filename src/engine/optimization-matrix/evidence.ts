/**
 * What one run's log says of the switches (switch.ts): the ESM-2 stage's end line (its architecture and tokens), its
 * Batch lines, and the lines pipeline/switch-lines.ts reads from the stored log.
 */
import type { BatchEvent } from '../../pipeline/events.ts'
import { type SwitchLines, switchLinesOfLog } from '../../pipeline/switch-lines.ts'
import type { RunObservation } from '../observe-run.ts'

export const ESM2_STAGE = 'ESM-2 Feature Extraction'

export interface SwitchEvidence extends SwitchLines {
  /** The ESM-2 stage-end line's `architecture` (`v2.0`, `v1.0`); null when it names none. */
  esm2Architecture: string | null
  /** ESM-2 Batch lines (each with its pack eff). */
  esm2BatchLines: number
  /** ESM-2 batches the lines count: the highest batch number of each worker (the main process is one), summed. */
  esm2Batches: number
  /** The ESM-2 stage-end line's `tokens`; null when it gives none (VirNucPro's does not). */
  esm2Tokens: number | null
}

/** Batches by the highest number each process logged (refpipe numbers them from 1 in every process). */
function batchCount(batches: readonly BatchEvent[]): number {
  const highest = new Map<number | null, number>()
  for (const b of batches) highest.set(b.worker, Math.max(highest.get(b.worker) ?? 0, b.batch))
  return [...highest.values()].reduce((sum, n) => sum + n, 0)
}

/** The run's evidence, or why its log cannot give it (no log kept, a log that cannot be read). */
export function switchEvidence(o: RunObservation): SwitchEvidence | string {
  const { run } = o.measured
  if (!run.logPath) return 'the run kept no log to read'
  let lines: SwitchLines
  try {
    lines = switchLinesOfLog(run.logPath)
  } catch (error) {
    return `its log ${run.logPath} cannot be read (${(error as Error).message})`
  }
  const extras = run.stages.find((s) => s.name === ESM2_STAGE)?.extras ?? {}
  const architecture = extras.architecture
  const tokens = extras.tokens
  return {
    ...lines,
    esm2Architecture: architecture === undefined ? null : String(architecture),
    esm2BatchLines: o.esm2Batches.length,
    esm2Batches: batchCount(o.esm2Batches),
    esm2Tokens: typeof tokens === 'number' ? tokens : null,
  }
}

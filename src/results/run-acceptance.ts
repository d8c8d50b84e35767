/**
 * Whether a kept run (`run.json` of the run journal) stands for a run of a measurement, in one set of words for every
 * side that reads it: continuing (src/engine/kept-runs.ts, which also needs it completed) and the readers that show
 * an interrupted run (partial-records.ts: `report`, `capacity`, `history add`). A run stands only when its key equals
 * the measurement's (what was measured: code, target, GPUs, input bytes, configuration) and its figures are ones a run
 * can have: a `run.json` copied in from another input, or edited, is named and left out, never pooled or judged.
 */
import { keyDifferences, type RunKey } from './run-key.ts'
import type { RunEntry } from './schema/run-entry.ts'

/**
 * A run's wall time past this is no run of this suite: a target run's own limit is hours (RUN_TIMEOUT_MS), a 6 M
 * campaign a day or two. Thirty days leaves room for anything real and none for 1e308 ms.
 */
export const MAX_PLAUSIBLE_MS = 30 * 24 * 3_600_000

/** Why a time in ms cannot be one a run measured, or null. */
function badMs(name: string, value: number | null, maxMs: number): string | null {
  if (value === null) return null
  if (!Number.isFinite(value) || value < 0) return `${name} ${value} ms is no duration`
  if (value > maxMs)
    return `${name} ${value} ms is more than ${maxMs === MAX_PLAUSIBLE_MS ? '30 days' : `its run's ${maxMs} ms`}`
  return null
}

/** Why the entry's figures cannot be a measured run's (its wall time, start, stage spans), or null when they can. */
export function implausibility(entry: RunEntry): string | null {
  const run = entry.measured.run
  if (Number.isNaN(Date.parse(run.startedAt))) return `its start '${run.startedAt.slice(0, 40)}' is no time`
  const wall = badMs('wall time', run.wallMs, MAX_PLAUSIBLE_MS)
  if (wall) return wall
  // Spans are on the runner's clock from the spawn: inside the run, give or take the last poll (1 s).
  const spanMaxMs = run.wallMs + 1_000
  for (const s of run.stages) {
    const bad =
      badMs(`stage '${s.name}' start`, s.startMs, spanMaxMs) ??
      badMs(`stage '${s.name}' end`, s.endMs, spanMaxMs) ??
      badMs(`stage '${s.name}' duration`, s.receivedDurationMs, spanMaxMs)
    if (bad) return bad
    if (s.startMs !== null && s.endMs !== null && s.endMs < s.startMs)
      return `stage '${s.name}' ends (${s.endMs} ms) before it starts (${s.startMs} ms)`
  }
  return null
}

/**
 * Why a kept run cannot stand for a run of the measurement keyed `key`, or null when it can. `completedOnly`: only a
 * run that completed stands (continuing: a failed run is measured again); readers show failed runs as failed.
 */
export function runRefusal(entry: RunEntry, key: RunKey, completedOnly: boolean): string | null {
  const run = entry.measured.run
  if (completedOnly && run.exitClass !== 'completed')
    return `it ended as ${run.exitClass}${run.reason ? `: ${run.reason}` : ''}`
  const differences = keyDifferences(entry.key, key)
  if (differences.length > 0) return `its key differs: ${differences.join('; ')}`
  const implausible = implausibility(entry)
  return implausible ? `its figures are implausible: ${implausible}` : null
}

/**
 * Whether a run ran the architecture its configuration asked for (issue 56): read from the log's own line, so a
 * v1.0 run measured as v2.0 (a flag dropped, a list of one GPU that turns nothing on) is a failed run, said in one line
 * with the line the log gave, never a figure filed under the wrong path.
 */
import type { Architecture, ArchitectureSeen } from './architecture-line.ts'
import type { TargetEvent } from './events.ts'

/** The first architecture line of a run's events; null where the log named none. */
export function architectureSeen(events: readonly TargetEvent[]): ArchitectureSeen | null {
  const e = events.find((x) => x.type === 'architecture')
  return e?.type === 'architecture' ? { architecture: e.architecture, line: e.line } : null
}

/** Why a completed run is no run of `asked`, or null where it is one (or nothing was asked). */
export function architectureProblem(asked: Architecture | undefined, seen: ArchitectureSeen | null): string | null {
  if (asked === undefined) return null
  if (seen === null)
    return `asked for the ${asked} architecture, but the pipeline's log names none (no "Architecture: ..." line): what ran is unknown, so the run is not counted`
  if (seen.architecture !== asked)
    return `asked for the ${asked} architecture, but the pipeline ran ${seen.architecture}: its log says "${seen.line}"`
  return null
}

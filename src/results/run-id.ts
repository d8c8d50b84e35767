import { randomBytes } from 'node:crypto'

/**
 * A run ID: the UTC start time (sortable, safe in file names) plus 4 random hex digits so two runs started in the same
 * second never share a results directory. One per vitest invocation (made in globalSetup, handed to workers by provide).
 */
export function makeRunId(startedAt = new Date(), suffix = randomBytes(2).toString('hex')): string {
  const stamp = startedAt
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(':', '-')
  return `${stamp}-${suffix}`
}

const RUN_ID = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z-[0-9a-f]{4}$/

export function isRunId(text: string): boolean {
  return RUN_ID.test(text)
}

/** The start time a run ID carries (to the second), or null for a name that is no run ID. */
export function runIdDate(runId: string): Date | null {
  if (!isRunId(runId)) return null
  const [, day, h, m, s] = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z/.exec(runId)!
  const date = new Date(`${day}T${h}:${m}:${s}Z`)
  return Number.isNaN(date.getTime()) ? null : date
}

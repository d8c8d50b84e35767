/**
 * Equivalence, sweep and A/B records: their judged figures are the suites' verdicts, and their numbers live in `stats`
 * (shapes owned by src/suites); reports list the verdicts and every top-level numeric stat, whatever the shape.
 */
import type { ResultKind, ResultRecord, Verdict } from '../../results/schema/index.ts'

export interface KindEntry {
  recordId: string
  name: string
  state: ResultRecord['state']
  reason: string | null
  verdicts: Verdict[]
  /** Top-level numeric `stats` entries (nested objects flattened one level: `a.b`). */
  figures: { name: string; value: number }[]
}

export type KindsReport = Record<'equivalence' | 'sweep' | 'ab', KindEntry[]>

function figures(stats: Record<string, unknown>): { name: string; value: number }[] {
  const out: { name: string; value: number }[] = []
  for (const [key, value] of Object.entries(stats)) {
    if (typeof value === 'number' && Number.isFinite(value)) out.push({ name: key, value })
    else if (value && typeof value === 'object' && !Array.isArray(value))
      for (const [inner, v] of Object.entries(value))
        if (typeof v === 'number' && Number.isFinite(v)) out.push({ name: `${key}.${inner}`, value: v })
  }
  return out.slice(0, 20)
}

function entries(records: readonly ResultRecord[], kind: ResultKind): KindEntry[] {
  return records
    .filter((r) => r.kind === kind)
    .map((r) => ({
      recordId: r.id,
      name: r.name,
      state: r.state,
      reason: r.reason,
      verdicts: r.verdicts,
      figures: figures(r.stats),
    }))
}

export function analyzeKinds(records: readonly ResultRecord[]): KindsReport {
  return { equivalence: entries(records, 'equivalence'), sweep: entries(records, 'sweep'), ab: entries(records, 'ab') }
}

/** The signs more than one switch looks for in a run's evidence (evidence.ts); each says what is missing, or null. */
import type { SwitchEvidence } from './evidence.ts'

/** The ESM-2 stage ran on v2.0, the only path whose async inference reads `reads`. */
export function esm2OnV2(e: SwitchEvidence, reads: string): string | null {
  if (e.esm2Architecture === 'v2.0') return null
  const ran = e.esm2Architecture === null ? 'a path its end line does not name' : e.esm2Architecture
  return `its ESM-2 stage ran on ${ran}, and only v2.0's async inference reads ${reads}`
}

/** ESM-2 Batch lines, each with its pack eff: packed batches ran. */
export function packedBatches(e: SwitchEvidence, why = ''): string | null {
  return e.esm2BatchLines > 0 ? null : `no ESM-2 Batch line with a pack eff: nothing shows packed batches ran${why}`
}

/** Every ESM-2 build in `dtype`, as its `ESM-2 ready` line says. */
export function esm2BuiltIn(e: SwitchEvidence, dtype: string): string | null {
  if (e.esm2Dtypes.length === 0) return 'no ESM-2 ready line names the dtype ESM-2 was built in'
  const other = e.esm2Dtypes.find((d) => d !== dtype)
  return other === undefined ? null : `ESM-2 was built in ${other} (its ESM-2 ready line), not ${dtype}`
}

/**
 * Which stored records one refit reads together (issue 56): a record's configurations all ran one architecture since
 * the suite asked for one, so the v2.0 answer and the v1.0 baseline of a run directory are refitted apart, each its
 * own answer (two 1-GPU configurations in one fit would read as one GPU count twice), and compared after
 * (architecture-compare.ts). A record of mixed configurations (written before issue 56: `--gpus 0` ran v1.0, `--gpus
 * 0,1` v2.0) stays whole, its k-against-1 said mixed. The v2.0 group first: the answer users run.
 */
import type { ResultRecord } from '../results/schema/index.ts'
import { type RunSources, runArchitecture } from './refit-sources.ts'

export interface RecordGroup {
  /** The architectures its runs ran, sorted (`v2.0`; `v1.0 + v2.0` for a mixed record); `unknown` where none said. */
  architecture: string
  records: ResultRecord[]
}

/** The architectures a record's measured runs ran, as one name. */
function signature(record: ResultRecord, sources: Partial<RunSources>): string {
  const seen = new Set(
    record.runs.filter((r) => !r.warmup).map((r) => runArchitecture(r, record, sources) ?? 'unknown'),
  )
  return [...seen].sort().join(' + ') || 'unknown'
}

/** `records` grouped by the architectures they ran, the v2.0 group first, then the rest as they come. */
export function groupByArchitecture(
  records: readonly ResultRecord[],
  sources: Partial<RunSources> = {},
): RecordGroup[] {
  const groups = new Map<string, ResultRecord[]>()
  for (const r of records) {
    const key = signature(r, sources)
    groups.set(key, [...(groups.get(key) ?? []), r])
  }
  return [...groups]
    .map(([architecture, rs]) => ({ architecture, records: rs }))
    .sort((a, b) => Number(b.architecture === 'v2.0') - Number(a.architecture === 'v2.0'))
}

import type { Configuration } from '../engine/configuration.ts'
import type { ResolvedInput } from '../input/resolver.ts'

/**
 * A capacity record's own id and title, where its configurations' labels would not say what it is: a known answer's
 * (capacity/known-answer.ts), which checks the size model and must never read as a configuration's capacity answer.
 */
export interface RecordName {
  id: string
  title: string
}

/**
 * The capacity record the runs are for: its id and name, as writeCapacityRecord writes them (the journal names it).
 * `naming`: a suffix that tells two records of the same configurations apart, or the record's own name.
 */
export function capacityPurpose(
  configs: readonly Configuration[],
  inputs: readonly ResolvedInput[],
  naming: string | RecordName,
) {
  const labels = configs.map((c) => c.label).join(' + ')
  const measured = `${labels} at ${inputs.map((i) => i.records.toLocaleString('en-US')).join(' / ')} seqs`
  if (typeof naming !== 'string')
    return { kind: 'capacity' as const, id: naming.id, name: `${naming.title} (${measured})` }
  return { kind: 'capacity' as const, id: `capacity-${labels}${naming}`, name: `capacity, ${measured}` }
}

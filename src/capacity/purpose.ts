import type { Configuration } from '../engine/configuration.ts'
import type { ResolvedInput } from '../input/resolver.ts'

/** The capacity record the runs are for: its id and name, as writeCapacityRecord writes them (the journal names it). */
export function capacityPurpose(configs: readonly Configuration[], inputs: readonly ResolvedInput[], idSuffix: string) {
  const labels = configs.map((c) => c.label).join(' + ')
  return {
    kind: 'capacity' as const,
    id: `capacity-${labels}${idSuffix}`,
    name: `capacity, ${labels} at ${inputs.map((i) => i.records.toLocaleString('en-US')).join(' / ')} seqs`,
  }
}

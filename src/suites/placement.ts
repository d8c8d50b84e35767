/** Placement check: did each run's work land on exactly the GPUs it asked for (NVML per-process attribution)? */
import type { Verdict } from '../results/schema/index.ts'
import type { MeasuredConfiguration } from './measure-configuration.ts'
import { completedRuns } from './measure-configuration.ts'
import { verdict } from './verdict.ts'

export interface PlacementEntry {
  label: string
  requested: number[] | null
  used: number[] | null
  /** Asked for but never held a context. */
  idle: number[]
  /** Held a context without being asked for. */
  unexpected: number[]
}

export function placementEntries(measurements: readonly MeasuredConfiguration[]): PlacementEntry[] {
  return measurements.flatMap(completedRuns).map((o) => {
    const { gpusRequested: requested, gpusUsed: used } = o.measured.run
    return {
      label: o.measured.label,
      requested,
      used,
      idle: requested && used ? requested.filter((g) => !used.includes(g)) : [],
      unexpected: requested && used ? used.filter((g) => !requested.includes(g)) : [],
    }
  })
}

/** One verdict over every completed measured run: fail on any misplaced or idle GPU. */
export function placementVerdict(entries: readonly PlacementEntry[], id = 'placement'): Verdict {
  const base = { id, title: 'GPU placement (the GPUs really used)', threshold: 'used == requested' }
  const gpuRuns = entries.filter((e) => e.requested !== null)
  if (gpuRuns.length === 0)
    return verdict({ ...base, verdict: 'skipped', detail: 'no run asked for specific GPUs (CPU or target default)' })
  const unknown = gpuRuns.filter((e) => e.used === null)
  const wrong = gpuRuns.filter((e) => e.idle.length > 0 || e.unexpected.length > 0)
  if (wrong.length > 0) {
    const show = wrong
      .slice(0, 3)
      .map((e) => `${e.label}: asked ${e.requested!.join(',')}, used ${e.used!.join(',') || 'none'}`)
      .join('; ')
    return verdict({ ...base, verdict: 'fail', value: wrong.length, unit: 'runs', detail: show })
  }
  if (unknown.length > 0)
    return verdict({ ...base, verdict: 'inconclusive', detail: `${unknown.length} run(s) without NVML attribution` })
  return verdict({
    ...base,
    verdict: 'pass',
    value: 0,
    unit: 'runs',
    detail: `${gpuRuns.length} run(s) used exactly the GPUs asked for`,
  })
}

/** Placement check: did each run's work land on exactly the GPUs it asked for (NVML per-process attribution)? */
import type { Verdict } from '../results/schema/index.ts'
import type { MeasuredConfiguration } from './measure-configuration.ts'
import { verdict } from './verdict.ts'

export interface PlacementEntry {
  label: string
  requested: number[] | null
  used: number[] | null
  /** Asked for but never held a context (left empty for a failed run: its crash may explain an unused GPU). */
  idle: number[]
  /** Held a context without being asked for. */
  unexpected: number[]
  /** Why the run did not complete (`<exit class>: <reason>`); null when it completed. */
  failed: string | null
}

/**
 * One entry per run, warm-ups and failed runs included: what a run asked for is known however it ended, and a warm-up
 * places its work as a measured run does (the case: a warm-up that failed was the only run, and it had asked
 * for GPU 0).
 */
export function placementEntries(measurements: readonly MeasuredConfiguration[]): PlacementEntry[] {
  return measurements.flatMap((m) =>
    m.observations.map((o) => {
      const { gpusRequested: requested, gpusUsed: used, exitClass, reason } = o.measured.run
      const failed = exitClass === 'completed' ? null : `${exitClass}: ${reason ?? exitClass}`
      return {
        label: o.measured.label,
        requested,
        used,
        idle: requested && used && failed === null ? requested.filter((g) => !used.includes(g)) : [],
        unexpected: requested && used ? used.filter((g) => !requested.includes(g)) : [],
        failed,
      }
    }),
  )
}

/**
 * Whether a run can be judged: a completed run always (without attribution it makes the verdict inconclusive); a
 * failed one only when it used some GPU, since one that died before any GPU work says nothing about placement.
 */
const judgeable = (e: PlacementEntry) => !e.failed || (e.used !== null && e.used.length > 0)

const gpuList = (gpus: readonly number[] | null) => (gpus && gpus.length > 0 ? gpus.join(',') : 'none')

/**
 * One verdict over the runs that asked for specific GPUs: fail on any misplaced or idle GPU; `error` when every such
 * run failed before doing GPU work (they asked, but nothing was placed to judge). Failed runs left unjudged are counted.
 */
export function placementVerdict(entries: readonly PlacementEntry[], id = 'placement'): Verdict {
  const base = { id, title: 'GPU placement (the GPUs really used)', threshold: 'used == requested' }
  const gpuRuns = entries.filter((e) => e.requested !== null)
  if (gpuRuns.length === 0)
    return verdict({ ...base, verdict: 'skipped', detail: 'no run asked for specific GPUs (CPU or target default)' })
  const judged = gpuRuns.filter(judgeable)
  const unjudged = gpuRuns.filter((e) => !judgeable(e))
  if (judged.length === 0) {
    const first = unjudged[0] as PlacementEntry
    const detail = `${unjudged.length} run(s) asked for GPUs (${first.label}: asked ${gpuList(first.requested)}) and failed before any GPU work to judge: ${first.label} ended as ${first.failed}`
    return verdict({ ...base, verdict: 'error', detail })
  }
  const left = unjudged.length > 0 ? `; ${unjudged.length} failed run(s) without GPU work left unjudged` : ''
  const unknown = judged.filter((e) => e.used === null)
  const wrong = judged.filter((e) => e.idle.length > 0 || e.unexpected.length > 0)
  if (wrong.length > 0) {
    const show = wrong
      .slice(0, 3)
      .map((e) => `${e.label}: asked ${gpuList(e.requested)}, used ${gpuList(e.used)}`)
      .join('; ')
    return verdict({ ...base, verdict: 'fail', value: wrong.length, unit: 'runs', detail: `${show}${left}` })
  }
  if (unknown.length > 0)
    return verdict({
      ...base,
      verdict: 'inconclusive',
      detail: `${unknown.length} run(s) without NVML attribution${left}`,
    })
  return verdict({
    ...base,
    verdict: 'pass',
    value: 0,
    unit: 'runs',
    detail: `${judged.length} run(s) used exactly the GPUs asked for${left}`,
  })
}

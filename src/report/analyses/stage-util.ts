/**
 * Utilization samples of monitor series by stage and GPU, sorted once per series, for PERF-02's pooled percentiles.
 * A large run has ~1M samples: each series is read in one pass and sorted in a Float64Array (native numeric sort,
 * no boxed numbers), however many run groups point to it.
 */
import { quantile, type SortedSamples } from '../../measure/index.ts'
import type { SampleRecord } from '../../monitor/records.ts'

/** Sorted utilization (%) per stage, then per GPU, of one series. Samples outside any stage are left out. */
export type StageUtil = Map<string, Map<number, Float64Array>>

/** Pass over one series: finite utilization values grouped by stage and GPU, each group sorted ascending. */
export function stageUtilOf(samples: readonly SampleRecord[]): StageUtil {
  const lists = new Map<string, Map<number, number[]>>()
  for (const s of samples) {
    if (s.stage === null || s.utilPct === null || !Number.isFinite(s.utilPct)) continue
    let byGpu = lists.get(s.stage)
    if (!byGpu) {
      byGpu = new Map()
      lists.set(s.stage, byGpu)
    }
    const list = byGpu.get(s.gpu)
    if (list) list.push(s.utilPct)
    else byGpu.set(s.gpu, [s.utilPct])
  }
  const out: StageUtil = new Map()
  for (const [stage, byGpu] of lists) {
    const sorted = new Map<number, Float64Array>()
    for (const [gpu, list] of byGpu) sorted.set(gpu, Float64Array.from(list).sort())
    out.set(stage, sorted)
  }
  return out
}

/**
 * The type-7 quantile `p` of one stage and GPU pooled over several series' sorted values (each series counted once);
 * null when none of them has a sample there.
 */
export function pooledQuantile(parts: readonly StageUtil[], stage: string, gpu: number, p: number): number | null {
  const arrays: Float64Array[] = []
  for (const part of parts) {
    const values = part.get(stage)?.get(gpu)
    if (values && values.length > 0) arrays.push(values)
  }
  if (arrays.length === 0) return null
  let sorted = arrays[0] as Float64Array
  if (arrays.length > 1) {
    sorted = new Float64Array(arrays.reduce((n, a) => n + a.length, 0))
    let offset = 0
    for (const a of arrays) {
      sorted.set(a, offset)
      offset += a.length
    }
    sorted.sort()
  }
  // Finite and ascending by construction (filtered and sorted above): the one statistics module reads it as is.
  return quantile(sorted as unknown as SortedSamples, p)
}

/** Sorted utilization per series, computed on first use; one cache per analysis so nothing outlives a report. */
export function stageUtilCache(): (samples: readonly SampleRecord[]) => StageUtil {
  const cache = new Map<readonly SampleRecord[], StageUtil>()
  return (samples) => {
    let util = cache.get(samples)
    if (!util) {
      util = stageUtilOf(samples)
      cache.set(samples, util)
    }
    return util
  }
}

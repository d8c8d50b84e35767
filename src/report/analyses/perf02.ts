/**
 * PERF-02: GPU utilization in the embedding stages (thresholds.perf02.stages), per run group, stage and requested GPU:
 * utilization mean / p50 / p5 (p5 from the monitor series; the summary keeps only p50 and p95), GPM SM and tensor
 * utilization, pass/fail of the mean against `perf02.minUtilPct`, and a note where "utilization" (any kernel running)
 * says busy while SM utilization (how much of the chip works) says otherwise.
 */
import { quantile, toSorted } from '../../measure/index.ts'
import type { SampleRecord } from '../../monitor/records.ts'
import type { ResultRecord } from '../../results/schema/index.ts'
import { BUSY_BUT_IDLE_SM_GAP_PCT } from './bottleneck-rules.ts'
import { type CountedRun, countedRuns, gpuCountOf, groupBy, medianOf } from './runs.ts'

export interface Perf02Row {
  recordId: string
  group: string
  gpuCount: number
  stage: string
  gpu: number
  runs: number
  utilMeanPct: number | null
  utilP50Pct: number | null
  /** Pooled over the group's series; null when no series could be read. */
  utilP5Pct: number | null
  smUtilPct: number | null
  tensorUtilPct: number | null
  thresholdPct: number
  verdict: 'pass' | 'fail' | 'inconclusive'
  note: string | null
}

export interface Perf02Report {
  rows: Perf02Row[]
  pass: number
  fail: number
}

type SeriesMap = ReadonlyMap<string, readonly SampleRecord[]>

/** Utilization samples per `stage|gpu` over the runs' series (one pass over each series). */
function pooledUtil(runs: CountedRun[], series: SeriesMap): Map<string, number[]> {
  const pooled = new Map<string, number[]>()
  for (const run of runs) {
    const samples = run.measured.gpu?.logPath ? series.get(run.measured.gpu.logPath) : undefined
    if (!samples) continue
    for (const s of samples) {
      if (s.stage === null || s.utilPct === null) continue
      const key = `${s.stage}|${s.gpu}`
      const list = pooled.get(key)
      if (list) list.push(s.utilPct)
      else pooled.set(key, [s.utilPct])
    }
  }
  return pooled
}

function note(row: Omit<Perf02Row, 'note'>): string | null {
  if (row.utilMeanPct === null) return 'no monitor samples in this stage window'
  if (row.smUtilPct === null) return null
  if (row.utilMeanPct - row.smUtilPct >= BUSY_BUT_IDLE_SM_GAP_PCT)
    return `"utilization" ${row.utilMeanPct.toFixed(1)}% says busy, SM utilization ${row.smUtilPct.toFixed(1)}% says the chip is mostly idle`
  return null
}

function rowsOfGroup(runs: CountedRun[], record: ResultRecord, series: SeriesMap): Perf02Row[] {
  const first = runs[0] as CountedRun
  const pooled = pooledUtil(runs, series)
  const rows: Perf02Row[] = []
  const min = record.thresholds.perf02.minUtilPct
  for (const stage of record.thresholds.perf02.stages) {
    const windows = runs.flatMap((r) => r.measured.gpu?.stages.filter((s) => s.stage === stage) ?? [])
    if (windows.length === 0) continue
    const gpus = [...new Set(windows.flatMap((w) => w.gpus.map((g) => g.gpu)))].sort((a, b) => a - b)
    for (const gpu of gpus) {
      const stats = windows.flatMap((w) => w.gpus.filter((g) => g.gpu === gpu))
      const of = (f: (m: (typeof stats)[number]['metrics']) => number | undefined) =>
        medianOf(stats.flatMap((g) => (f(g.metrics) === undefined ? [] : [f(g.metrics) as number])))
      const utilMeanPct = of((m) => m.utilPct?.mean)
      const samples = pooled.get(`${stage}|${gpu}`)
      const row = {
        recordId: record.id,
        group: first.group,
        gpuCount: gpuCountOf(first.measured),
        stage,
        gpu,
        runs: stats.length,
        utilMeanPct,
        utilP50Pct: of((m) => m.utilPct?.p50),
        utilP5Pct: samples && samples.length > 0 ? quantile(toSorted(samples, 'utilization'), 0.05) : null,
        smUtilPct: of((m) => m.gpmSmUtilPct?.mean),
        tensorUtilPct: of((m) => m.gpmTensorUtilPct?.mean),
        thresholdPct: min,
        verdict:
          utilMeanPct === null ? ('inconclusive' as const) : utilMeanPct >= min ? ('pass' as const) : ('fail' as const),
      }
      rows.push({ ...row, note: note(row) })
    }
  }
  return rows
}

/** Pure: records and their series in, one row per (group, stage, GPU) out. */
export function analyzePerf02(records: readonly ResultRecord[], series: SeriesMap): Perf02Report {
  const byId = new Map(records.map((r) => [r.id, r]))
  const groups = groupBy(countedRuns(records), (r) => `${r.recordId}\u0000${r.group}`)
  const rows = [...groups.values()].flatMap((runs) =>
    rowsOfGroup(runs, byId.get((runs[0] as CountedRun).recordId) as ResultRecord, series),
  )
  return {
    rows,
    pass: rows.filter((r) => r.verdict === 'pass').length,
    fail: rows.filter((r) => r.verdict === 'fail').length,
  }
}

/**
 * PERF-02: GPU utilization in the embedding stages (thresholds.perf02.stages), per run group, stage and requested GPU:
 * utilization mean / p50 / p5 (p5 from the monitor series; the summary keeps only p50 and p95), GPM SM and tensor
 * utilization, pass/fail of the mean against `perf02.minUtilPct`, and a note where "utilization" (any kernel running)
 * says busy while SM utilization (how much of the chip works) says otherwise.
 */
import type { SampleRecord } from '../../monitor/records.ts'
import { type CountedRun, gpuCountOf, medianOf, type RunGroup, runGroups } from '../../results/runs.ts'
import type { ResultRecord } from '../../results/schema/index.ts'
import { BUSY_BUT_IDLE_SM_GAP_PCT } from './bottleneck-rules.ts'
import { pooledQuantile, type StageUtil, stageUtilCache } from './stage-util.ts'

export interface Perf02Row {
  /** The first record holding these runs (CI figure names key on it). */
  recordId: string
  /** Every record holding these same runs (runs.ts runGroups). */
  recordIds: string[]
  group: string
  gpuCount: number
  stage: string
  gpu: number
  runs: number
  utilMeanPct: number | null
  utilP50Pct: number | null
  /** Pooled over the group's distinct series (a log that several runs name counts once); null without series. */
  utilP5Pct: number | null
  smUtilPct: number | null
  tensorUtilPct: number | null
  thresholdPct: number
  verdict: 'pass' | 'fail' | 'inconclusive'
  /** Runs of a partial record: its verdict is provisional, shown so and never counted in `pass` or `fail`. */
  provisional: boolean
  note: string | null
}

export interface Perf02Report {
  rows: Perf02Row[]
  /** Final verdicts only (a partial record's rows are counted in `provisional`). */
  pass: number
  fail: number
  provisional: number
}

type SeriesMap = ReadonlyMap<string, readonly SampleRecord[]>

/** The distinct series of a group's runs, each read once (runs that name one log share its samples). */
function seriesOf(
  runs: CountedRun[],
  series: SeriesMap,
  utilOf: (s: readonly SampleRecord[]) => StageUtil,
): StageUtil[] {
  const paths = new Set<string>()
  for (const run of runs) if (run.measured.gpu?.logPath) paths.add(run.measured.gpu.logPath)
  return [...paths].flatMap((path) => {
    const samples = series.get(path)
    return samples ? [utilOf(samples)] : []
  })
}

function note(row: Omit<Perf02Row, 'note'>): string | null {
  if (row.utilMeanPct === null) return 'no monitor samples in this stage window'
  if (row.smUtilPct === null) return null
  if (row.utilMeanPct - row.smUtilPct >= BUSY_BUT_IDLE_SM_GAP_PCT)
    return `"utilization" ${row.utilMeanPct.toFixed(1)}% says busy, SM utilization ${row.smUtilPct.toFixed(1)}% says the chip is mostly idle`
  return null
}

type GpuStats = NonNullable<CountedRun['measured']['gpu']>['stages'][number]['gpus'][number]

/** The monitor's per-GPU statistics of one stage over the group's runs, by GPU (ascending), in run order. */
function statsByGpu(runs: readonly CountedRun[], stage: string): [number, GpuStats[]][] {
  const byGpu = new Map<number, GpuStats[]>()
  for (const r of runs)
    for (const window of r.measured.gpu?.stages ?? []) {
      if (window.stage !== stage) continue
      for (const g of window.gpus) {
        const list = byGpu.get(g.gpu)
        if (list) list.push(g)
        else byGpu.set(g.gpu, [g])
      }
    }
  return [...byGpu].sort(([a], [b]) => a - b)
}

/** Median over the runs of one metric statistic; runs without it are left out. */
function medianOfMetric(
  stats: readonly GpuStats[],
  get: (m: GpuStats['metrics']) => number | undefined,
): number | null {
  const values: number[] = []
  for (const g of stats) {
    const value = get(g.metrics)
    if (value !== undefined) values.push(value)
  }
  return medianOf(values)
}

function rowsOfGroup({ runs, record, recordIds, provisional }: RunGroup, pooled: StageUtil[]): Perf02Row[] {
  const first = runs[0] as CountedRun
  const rows: Perf02Row[] = []
  const min = record.thresholds.perf02.minUtilPct
  for (const stage of record.thresholds.perf02.stages) {
    for (const [gpu, stats] of statsByGpu(runs, stage)) {
      const utilMeanPct = medianOfMetric(stats, (m) => m.utilPct?.mean)
      const row: Perf02Row = {
        recordId: record.id,
        recordIds,
        group: first.group,
        gpuCount: gpuCountOf(first.measured),
        stage,
        gpu,
        runs: stats.length,
        utilMeanPct,
        utilP50Pct: medianOfMetric(stats, (m) => m.utilPct?.p50),
        utilP5Pct: pooledQuantile(pooled, stage, gpu, 0.05),
        smUtilPct: medianOfMetric(stats, (m) => m.gpmSmUtilPct?.mean),
        tensorUtilPct: medianOfMetric(stats, (m) => m.gpmTensorUtilPct?.mean),
        thresholdPct: min,
        verdict: utilMeanPct === null ? 'inconclusive' : utilMeanPct >= min ? 'pass' : 'fail',
        provisional,
        note: null,
      }
      row.note = note(row)
      rows.push(row)
    }
  }
  return rows
}

/**
 * Pure: records and their series in, one row per (group, stage, GPU) out.
 * @param groups the records' run groups, when the caller has them already (buildReport shares one grouping).
 */
export function analyzePerf02(
  records: readonly ResultRecord[],
  series: SeriesMap,
  groups: readonly RunGroup[] = runGroups(records),
): Perf02Report {
  const utilOf = stageUtilCache()
  const rows = groups.flatMap((g) => rowsOfGroup(g, seriesOf(g.runs, series, utilOf)))
  const final = rows.filter((r) => !r.provisional)
  return {
    rows,
    pass: final.filter((r) => r.verdict === 'pass').length,
    fail: final.filter((r) => r.verdict === 'fail').length,
    provisional: rows.length - final.length,
  }
}

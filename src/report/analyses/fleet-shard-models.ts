/**
 * One shard record as the fleet merge reads it: its completed full-shard and subset runs (wall time, energy, stage
 * times) and its size model (src/measure/size-model.ts): wall time (and energy, where every run has it) as fixed +
 * per-sequence-equivalent parts, fitted through the two sizes the shard ran at. Each shard's model draws from its own
 * seeded stream: shards ran on different nodes, so their draws must be independent. Pure.
 */
import { createRandomSource, fitSizeModel, type SizedRun, type SizeModel } from '../../measure/index.ts'
import { stageDurationsMs } from '../../results/runs.ts'
import type { MeasuredRun, ResultRecord, ShardStats } from '../../results/schema/index.ts'

export const WALL = 'wall'
export const ENERGY = 'energy'

export interface RunReading {
  wallMs: number
  energyJ: number | null
  stagesMs: Record<string, number>
}

export interface ShardMeasured {
  record: ResultRecord
  stats: ShardStats
  full: RunReading[]
  subset: RunReading[]
  model: SizeModel | null
  /** Why there is no model, or why it has no CI; null when it has both. */
  modelProblem: string | null
}

function reading(m: MeasuredRun): RunReading {
  const stagesMs: Record<string, number> = {}
  for (const { stage, durationMs } of stageDurationsMs(m)) stagesMs[stage] = durationMs
  return { wallMs: m.run.wallMs, energyJ: m.gpu?.energy.totalJ ?? null, stagesMs }
}

const runsOf = (record: ResultRecord, setup: string) =>
  record.runs.filter((m) => !m.warmup && m.run.exitClass === 'completed' && m.config.setup === setup).map(reading)

function fitShard(record: ResultRecord, stats: ShardStats, full: RunReading[], subset: RunReading[]) {
  if (!stats.subset)
    return { model: null, modelProblem: `no size model: ${stats.subsetProblem ?? 'no subset measured'}` }
  if (full.length === 0 || subset.length === 0)
    return { model: null, modelProblem: 'no size model: a size has no completed run' }
  const sized = (runs: RunReading[], size: number): SizedRun[] =>
    runs.map((r) => ({ size, values: { [WALL]: r.wallMs, ...(r.energyJ !== null && { [ENERGY]: r.energyJ }) } }))
  const runs = [...sized(full, stats.full.sequenceEquivalents), ...sized(subset, stats.subset.sequenceEquivalents)]
  const series = runs.every((r) => ENERGY in r.values) ? [WALL, ENERGY] : [WALL]
  try {
    const model = fitSizeModel(runs, {
      series,
      referenceSeries: WALL,
      random: createRandomSource(`fleet/${record.provenance.runId}/${record.id}`),
    })
    return { model, modelProblem: model.ciProblem }
  } catch (error) {
    // A record whose two sizes came out equal, or a run with a non-finite reading: said, never thrown.
    return { model: null, modelProblem: `no size model: ${(error as Error).message}` }
  }
}

/** The shard record's runs and model. */
export function measureShard(record: ResultRecord, stats: ShardStats): ShardMeasured {
  const full = runsOf(record, stats.full.setup)
  const subset = stats.subset ? runsOf(record, stats.subset.setup) : []
  return { record, stats, full, subset, ...fitShard(record, stats, full, subset) }
}

/** Mean of the values (the size model's lines pass through each size's mean). */
export const meanOf = (values: readonly number[]) => values.reduce((a, v) => a + v, 0) / values.length

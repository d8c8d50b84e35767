/**
 * A shard record's stats (src/results/schema/shard-stats.ts): what the shard was, and the figures of its completed
 * full-shard runs as medians with CIs (stage-metrics.ts estimate). Host and GPU model are filled in from the record's
 * provenance when it is built (shard-suite.ts). Pure.
 */
import type { Thresholds } from '../../config/thresholds.ts'
import { completedRuns, type MeasuredConfiguration } from '../../engine/measure-configuration.ts'
import { estimate, stageDurationMs, toStat } from '../../engine/stage-metrics.ts'
import { PIPELINE_STAGES } from '../../pipeline/stages.ts'
import type { ShardStats } from '../../results/schema/index.ts'
import type { ShardArmInput, ShardInputs } from './shard-input.ts'
import { runThroughput } from './shard-run-figures.ts'

const arm = (setup: string, a: ShardArmInput) => ({
  setup,
  records: a.records,
  work: a.work,
  sequenceEquivalents: a.sequenceEquivalents,
})

/** Stages in pipeline order, then any other the runs logged. */
function stageNames(runs: ReturnType<typeof completedRuns>): string[] {
  const logged = runs.flatMap((o) => o.measured.run.stages.map((s) => s.name))
  const known: readonly string[] = PIPELINE_STAGES
  return [...known.filter((s) => logged.includes(s)), ...new Set(logged.filter((s) => !known.includes(s)))]
}

/**
 * @param configuration the configuration's own label (the arms' labels add the shard to it)
 * @param full the full shard's measurement; `subset` the subset's (null when there was none)
 * @param gpuCount GPUs the configuration ran on
 */
export function shardFigures(
  inputs: ShardInputs,
  configuration: string,
  full: MeasuredConfiguration,
  subset: MeasuredConfiguration | null,
  gpuCount: number,
  t: Thresholds,
): Omit<ShardStats, 'host' | 'gpuModel'> {
  const runs = completedRuns(full)
  const figures = runs.map((o) => runThroughput(o.measured, t.perf02.stages))
  const stat = (values: (number | null | undefined)[], what: string) =>
    toStat(
      estimate(
        values.map((v) => v ?? null),
        `shard ${what}`,
      ),
    )
  const s = inputs.source
  return {
    shard: { ...inputs.spec },
    source: {
      path: s.path,
      sha256: s.sha256,
      records: s.records,
      work: inputs.sourceWork,
      workPerRecord: s.workPerRecord,
      chunkLength: s.chunkLength,
    },
    full: arm(full.config.label, inputs.full),
    subset: subset && inputs.subset ? arm(subset.config.label, inputs.subset) : null,
    subsetProblem: inputs.subsetProblem,
    configuration,
    gpuCount,
    measuredRuns: runs.length,
    sequences: figures.find((f) => f?.sequences != null)?.sequences ?? null,
    wallMs: stat(
      figures.map((f) => f?.wallMs),
      'wallMs',
    ),
    sequencesPerS: stat(
      figures.map((f) => f?.sequencesPerS),
      'sequences/s',
    ),
    tokensPerS: stat(
      figures.map((f) => f?.tokensPerS),
      'tokens/s',
    ),
    stages: stageNames(runs).map((stage) => ({
      stage,
      durationMs: stat(
        runs.map((o) => stageDurationMs(o.measured.run, stage)),
        `${stage} ms`,
      ),
    })),
    energyJ: stat(
      figures.map((f) => f?.energyJ),
      'energy J',
    ),
    jPerSequence: stat(
      figures.map((f) => f?.jPerSequence),
      'J/sequence',
    ),
  }
}

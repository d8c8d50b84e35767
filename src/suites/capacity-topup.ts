/**
 * The capacity suite's sequential design: after the planned runs, while some configuration's production-size
 * projection is wider than a planner can decide on (CAPACITY_CI_TARGET) and the GPU-minute budget allows, one more run
 * of that configuration at the largest size, then refit. The noise left once the steady parts are read inside the runs
 * is mostly whole-stage slowdowns of the host (a host-bound stage ran 1.6x slower for one of three 10,000-record runs
 * on an H100), which only more runs average out; a run at the largest size is where a run buys the most precision.
 *
 * The budget counts the runs' own wall times (warm-ups included) times the GPUs the host holds for the measurement,
 * not the clock: a measurement replayed from the run cache then makes the same decisions and measures nothing new.
 */
import type { Thresholds } from '../config/thresholds.ts'
import { analyzeCapacity, type CapacityStats, type ConfigMeasurements } from './capacity.ts'
import type { ResolvedInput } from './input.ts'
import { completedRuns, type MeasuredConfiguration } from './measure-configuration.ts'

/** The 6 M wall-time CI half-width a planner can decide on: +-3% on 1 GPU, +-5% on more (issue 24). */
export const CAPACITY_CI_TARGET = (gpuCount: number) => (gpuCount === 1 ? 0.03 : 0.05)
/** Top-ups at most, whatever the budget: a runaway loop on a host too noisy to converge is no design. */
export const CAPACITY_MAX_TOPUPS = 12
/** The suite's budget: its runs' wall time x the GPUs the host holds, at most (issue 24: one 2-GPU host, 15). */
export const CAPACITY_BUDGET_GPU_MIN = 15

export interface TopUpState {
  /** Why the loop ended. */
  stop: 'targets-reached' | 'budget' | 'max-top-ups' | 'no-fit' | 'run-failed'
  topUps: number
  /** GPU-minutes the runs took (their wall times x the GPUs held). */
  gpuMinutes: number
  budgetGpuMinutes: number
}

export interface TopUpOptions {
  inputs: readonly ResolvedInput[]
  thresholds: Thresholds
  budgetGpuMinutes: number
  /** Measures one more run of `config` at the largest size; k numbers the top-ups (1, 2, ...). */
  measureOne: (c: ConfigMeasurements, k: number) => Promise<MeasuredConfiguration>
}

const runsMs = (measured: readonly ConfigMeasurements[]) =>
  measured.flatMap((c) => c.bySize.flatMap((m) => m.observations)).reduce((a, o) => a + o.measured.run.wallMs, 0)

/** How far each configuration's production projection is from its target: half-width over target (> 1: too wide). */
export function ciExcess(
  stats: CapacityStats,
  production: number,
): { label: string; gpuCount: number; excess: number }[] {
  return stats.configurations.map((c) => {
    const at = c.at.find((a) => a.sequences === production)?.wallMs
    const half = at?.ci ? (at.ci.high - at.ci.low) / 2 / at.estimate : Number.POSITIVE_INFINITY
    return { label: c.label, gpuCount: c.gpuCount, excess: half / CAPACITY_CI_TARGET(c.gpuCount) }
  })
}

/** The median wall time of a configuration's runs at the largest size: what one more costs. */
function nextRunMs(c: ConfigMeasurements): number {
  const walls = completedRuns(c.bySize.at(-1)!)
    .map((o) => o.measured.run.wallMs)
    .sort((a, b) => a - b)
  return walls[Math.floor(walls.length / 2)] ?? Number.POSITIVE_INFINITY
}

/** Adds runs at the largest size until every configuration's CI is on target, or the budget is spent. */
export async function topUp(measured: ConfigMeasurements[], o: TopUpOptions): Promise<TopUpState> {
  const held = Math.max(...measured.map((c) => c.gpuCount))
  const production = o.thresholds.perf01.productionSequences
  const gpuMinutes = () => (runsMs(measured) / 60_000) * held
  for (let k = 1; ; k++) {
    const state = (stop: TopUpState['stop']): TopUpState => ({
      stop,
      topUps: k - 1,
      gpuMinutes: gpuMinutes(),
      budgetGpuMinutes: o.budgetGpuMinutes,
    })
    const { stats } = analyzeCapacity(measured, o.inputs, o.thresholds)
    if (stats.configurations.length === 0) return state('no-fit')
    const wide = ciExcess(stats, production).filter((e) => e.excess > 1)
    if (wide.length === 0) return state('targets-reached')
    if (k > CAPACITY_MAX_TOPUPS) return state('max-top-ups')
    const worst = wide.reduce((a, b) => (b.excess > a.excess ? b : a))
    const c = measured.find((m) => m.config.label === worst.label)!
    if (gpuMinutes() + (nextRunMs(c) / 60_000) * held > o.budgetGpuMinutes) return state('budget')
    const extra = await o.measureOne(c, k)
    const largest = c.bySize.at(-1)!
    c.bySize[c.bySize.length - 1] = { ...largest, observations: [...largest.observations, ...extra.observations] }
    if (extra.failure) return { ...state('run-failed'), topUps: k }
  }
}

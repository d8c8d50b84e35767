/**
 * The capacity measurement's sizes and held-out check as every GPU file asks for them (issue 48): the user's
 * VIRNUCPRO_BENCH_SIZES where given, else the plan a probe run reads from the pipeline's structure
 * (src/capacity/probe.ts); and, by default, a held-out size run directly after the design on every configuration
 * (VIRNUCPRO_BENCH_CAPACITY_DIRECT narrows the GPU counts), so a FINAL answer is one its check confirmed.
 */

import { heldOutGpuCounts } from '../../src/capacity/held-out-plan.ts'
import {
  type CapacityOptions,
  type CapacitySizes,
  capacitySizes,
  type SizedConfiguration,
} from '../../src/capacity/index.ts'
import type { RunContext } from './run-context.ts'

/** The sizes to fit (probing where the user gave none) and the plan behind them; prints the plan. */
export type CapacityInputs = CapacitySizes

export async function capacityInputs(rc: RunContext, configs: readonly SizedConfiguration[]): Promise<CapacitySizes> {
  const { input: _input, ...m } = rc.measure('')
  const sizes = await capacitySizes(
    rc.ctx,
    m,
    configs,
    rc.inputs,
    rc.settings.preset,
    rc.settings.sizesGiven ? rc.settings.sizes : null,
  )
  console.log(
    sizes.plan
      ? `capacity sizes: ${sizes.plan.why}`
      : `capacity sizes: ${rc.settings.sizes.join(' / ')} records (VIRNUCPRO_BENCH_SIZES), held out: the whole sample`,
  )
  return sizes
}

/** The held-out check and the plan, as runCapacitySuite takes them; a GPU count asked for but not measured is said. */
export function heldOutOptions(
  rc: RunContext,
  sizes: CapacitySizes,
  configs: readonly SizedConfiguration[],
): Pick<CapacityOptions, 'direct' | 'sizePlan'> {
  const { gpuCounts, note } = heldOutGpuCounts(
    configs.map((c) => c.gpuCount),
    rc.settings.capacityDirect,
  )
  if (note) console.log(note)
  return {
    direct: { runs: 1, gpuCounts, ...(sizes.plan && { records: sizes.plan.heldOut }) },
    ...(sizes.plan && { sizePlan: sizes.plan }),
  }
}

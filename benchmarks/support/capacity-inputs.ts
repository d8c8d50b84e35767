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
import { SIZE_RATIO } from '../../src/capacity/structure.ts'
import { MIN_SIZE_RATIO, noHeldOutNote } from '../../src/config/capacity-sample.ts'
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
  console.log(sizes.plan ? `capacity sizes: ${sizes.plan.why}` : `capacity sizes: ${givenSizesLine(rc, sizes)}`)
  return sizes
}

/**
 * The sizes a user gave and what is held out above them, said before the first run (issue 58: `held out: the whole
 * sample` was promised where the sample left no size above the fitted ones): the user's sample, or, for a generated
 * input, a size SIZE_RATIO above the largest; none where the sample is not MIN_SIZE_RATIO above it.
 */
function givenSizesLine(rc: RunContext, sizes: CapacitySizes): string {
  const given = rc.settings.sizes
  const head = `${given.map((s) => s.toLocaleString('en-US')).join(' / ')} records (VIRNUCPRO_BENCH_SIZES)`
  const held = givenHeldOut(rc, sizes)
  if (held !== null)
    return `${head}, held out: ${held.toLocaleString('en-US')} records (${Number.isFinite(sampleOf(rc, sizes)) ? 'the whole sample' : 'a generated size twice the largest'})`
  return `${head}; ${noHeldOutNote(sampleOf(rc, sizes), given)}`
}

/** Records of the user's sample the sizes were cut from; infinite for a generated input (it makes any size). */
const sampleOf = (rc: RunContext, sizes: CapacitySizes) => rc.inputs.sizeLimit(sizes.inputs.at(-1)!)

/** The held-out size above sizes the user gave, or null where the sample leaves none. */
function givenHeldOut(rc: RunContext, sizes: CapacitySizes): number | null {
  const largest = sizes.inputs.at(-1)!.records
  const sample = sampleOf(rc, sizes)
  if (!Number.isFinite(sample)) return largest * SIZE_RATIO
  return sample >= largest * MIN_SIZE_RATIO ? sample : null
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
  const given = sizes.plan ? null : givenHeldOut(rc, sizes)
  return {
    direct: {
      runs: 1,
      gpuCounts,
      // The plan's sizes to hold out; above given sizes, the one the line before the first run named, or none.
      records: sizes.plan ? sizes.plan.heldOut : given === null ? [] : [given],
    },
    ...(sizes.plan && { sizePlan: sizes.plan }),
  }
}

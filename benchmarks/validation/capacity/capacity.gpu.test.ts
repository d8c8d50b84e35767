/**
 * Validation of the size model (the capacity suite) on known answers, full scale, on the host's first 1 or 2 GPUs:
 * - direct: fit at CAPACITY_FIT_SIZES, then the same configurations measured directly at CAPACITY_DIRECT_SIZE (5x the
 *   largest fitted size), all arms interleaved after one warm-up each: projected and measured wall time within 5%; on
 *   2 GPUs, the measured speedup inside the projected CI;
 * - a planted fixed cost (slow-stage ESM-2, CAPACITY_FIXED_COST_S) on 1 GPU, fitted at CAPACITY_SHIFT_SIZES against the
 *   clean runs at those sizes, moves the measured-size time by about that much and the 6,000,000-sequence projection
 *   by < 1%;
 * - a planted per-batch stall (CAPACITY_STALL_MS before each ESM-2 batch) on 1 GPU lowers ESM-2's steady-state
 *   utilization and raises the 6,000,000-sequence projection.
 * Inputs are nested work-stratified subsets of one generated MEDIUM-parameter input (never VIRNUCPRO_BENCH_INPUT:
 * a known answer needs a known input). GPU machine: npx vitest run --project gpu benchmarks/validation/capacity
 */
import { beforeAll, describe, expect, test } from 'vitest'
import { median, toSorted } from '../../../src/measure/index.ts'
import type { CapacityStats, ConfigMeasurements } from '../../../src/suites/capacity.ts'
import { sequenceEquivalents } from '../../../src/suites/capacity.ts'
import { measureCapacity, writeCapacityRecord } from '../../../src/suites/capacity-suite.ts'
import { createInputResolver, type ResolvedInput } from '../../../src/suites/input.ts'
import { completedRuns, measureConfiguration } from '../../../src/suites/measure-configuration.ts'
import { checkDirect, checkShift, checkSpeedup } from '../../../src/validation/capacity-check.ts'
import {
  CAPACITY_DIRECT_SIZE,
  CAPACITY_FIT_SIZES,
  CAPACITY_FIXED_COST_S,
  CAPACITY_RUNS,
  CAPACITY_SHIFT_SIZES,
  CAPACITY_STALL_MS,
  ESM2,
  ONCE,
} from '../../../src/validation/scenarios.ts'
import { DATASET_CACHE_DIR } from '../../support/dataset.ts'
import { gpuAvailable } from '../../support/gpu.ts'
import { createRunContext, firstGpus, type RunContext } from '../../support/run-context.ts'

let rc: RunContext
/** Every size any check uses, ascending: nested subsets of one input. */
let all: ResolvedInput[] = []
const at = (records: number) => all.find((i) => i.records === records)!
beforeAll(async () => {
  if (!gpuAvailable()) return
  rc = await createRunContext(1)
  const known = await createInputResolver({ userInput: null, cacheDir: DATASET_CACHE_DIR })
  all = await known.nested('MEDIUM', [
    ...new Set([...CAPACITY_FIT_SIZES, ...CAPACITY_SHIFT_SIZES, CAPACITY_DIRECT_SIZE]),
  ])
  rc.ctx.inputs = { provenanceOf: (files) => known.provenanceOf(files) }
})
const fitSizes = () => CAPACITY_FIT_SIZES.map(at)
const shiftSizes = () => CAPACITY_SHIFT_SIZES.map(at)
/** The clean measurement's sizes: the fit sizes and the direct one. */
const directSizes = () => [...fitSizes(), at(CAPACITY_DIRECT_SIZE)]

const policy = () => ({ ...ONCE, warmupRuns: 1, minRuns: CAPACITY_RUNS, maxRuns: CAPACITY_RUNS })
const measure = () => {
  const { input: _input, ...m } = rc.measure(all[0]!.file)
  return { ...m, policy: policy() }
}
const configs = () =>
  [1, 2].filter((n) => n <= rc.gpuCount).map((n) => ({ config: rc.configs.base(firstGpus(n)), gpuCount: n }))
const withInject = (label: string, inject: string) => {
  const base = rc.configs.base([0])
  return [
    {
      config: { ...base, label: `${base.label}, ${label}`, extraArgs: [...(base.extraArgs ?? []), '--inject', inject] },
      gpuCount: 1,
    },
  ]
}
/** The measurements at `inputs` (a subset of directSizes(), which `m` is parallel to). */
const only = (m: ConfigMeasurements[], inputs: ResolvedInput[]) =>
  m.map((c) => ({ ...c, bySize: inputs.map((input) => c.bySize[directSizes().indexOf(input)]!) }))
const medianWall = (m: ConfigMeasurements['bySize'][number]) =>
  median(
    toSorted(
      completedRuns(m).map((o) => o.measured.run.wallMs),
      `${m.config.label} wall`,
    ),
  )
const production = () => rc.ctx.thresholds.perf01.productionSequences

/** The clean runs at every size, interleaved: measured once per file, whichever test asks first. */
let cleanOnce: Promise<ConfigMeasurements[]> | null = null
function clean() {
  cleanOnce ??= measureCapacity(rc.ctx, measure(), configs(), directSizes())
  return cleanOnce
}

const cleanConfig = () => rc.configs.base([0])
const options = (input: ResolvedInput) => ({
  ...measure(),
  input: input.file,
  profile: rc.ctx.profile,
  workDir: rc.ctx.workDir,
  cacheDir: rc.ctx.cacheDir,
})

/**
 * The clean 1-GPU configuration and `planted` measured side by side at `inputs`, interleaved in one measurement (one
 * machine, the same drift: a planted fault compared with clean runs of another machine measures the machines, which
 * differed by 5-10% in the CPU stages between two H200 calls), each fitted and recorded on its own.
 */
async function beside(planted: ReturnType<typeof withInject>, inputs: ResolvedInput[], warmupRuns: number) {
  const arms = [{ config: cleanConfig(), gpuCount: 1 }, ...planted]
  const [cleanM, faultM] = await measureCapacity(
    rc.ctx,
    { ...measure(), policy: { ...policy(), warmupRuns } },
    arms,
    inputs,
  )
  const suffix = `, beside ${planted[0]!.config.label}`
  const clean = await writeCapacityRecord(rc.ctx, [cleanM!], inputs, suffix)
  const fault = await writeCapacityRecord(rc.ctx, [faultM!], inputs, '')
  return {
    clean: clean.record as unknown as { stats: CapacityStats },
    fault: fault.record as unknown as { stats: CapacityStats },
  }
}

/** The clean fit at `inputs`, recorded (projecting to the direct size too). */
async function cleanFit(inputs: ResolvedInput[], idSuffix: string) {
  const measured = await clean()
  const direct = at(CAPACITY_DIRECT_SIZE)
  const extra = inputs.includes(direct) ? [] : [sequenceEquivalents(direct)]
  const { record } = await writeCapacityRecord(rc.ctx, only(measured, inputs), inputs, idSuffix, extra)
  return { measured, stats: record.stats as unknown as CapacityStats }
}

describe('validation: size model on known answers', () => {
  test(`a fit from ${CAPACITY_FIT_SIZES.join(' and ')} records predicts runs at ${CAPACITY_DIRECT_SIZE} within 5%`, async ({
    skip,
    annotate,
  }) => {
    if (rc.unavailable) skip(rc.unavailable)
    const { measured, stats } = await cleanFit(fitSizes(), '')
    for (const c of measured) for (const m of c.bySize) expect(m.failure?.reason ?? null).toBeNull()
    const direct = at(CAPACITY_DIRECT_SIZE)
    const size = sequenceEquivalents(direct)
    const walls = new Map(measured.map((c) => [c.config.label, medianWall(c.bySize[directSizes().indexOf(direct)]!)]))
    const checks = checkDirect(stats, size, walls)
    const base = walls.get(measured[0]!.config.label)!
    const speedups = checkSpeedup(
      stats,
      size,
      new Map(measured.slice(1).map((c) => [c.gpuCount, base / walls.get(c.config.label)!])),
    )
    for (const c of checks)
      await annotate(
        `validation capacity direct, ${c.label}: projected ${(c.projectedMs.estimate / 1000).toFixed(2)} s${c.projectedMs.ci ? ` [${(c.projectedMs.ci.low / 1000).toFixed(2)}, ${(c.projectedMs.ci.high / 1000).toFixed(2)}]` : ''} at ${CAPACITY_DIRECT_SIZE} records (${size.toFixed(0)} sequence-equivalents), measured ${(c.measuredMs / 1000).toFixed(2)} s (median of ${CAPACITY_RUNS}), error ${(c.relativeError * 100).toFixed(2)}%, measured inside CI: ${c.measuredInsideCi}`,
      )
    for (const s of speedups)
      await annotate(
        `validation capacity speedup, ${s.gpuCount} GPUs: projected ${s.projected.estimate.toFixed(3)}x${s.projected.ci ? ` [${s.projected.ci.low.toFixed(3)}, ${s.projected.ci.high.toFixed(3)}]` : ''}, measured ${s.measured.toFixed(3)}x, inside CI: ${s.insideCi}`,
      )
    for (const c of checks) expect(c.within, `${c.label}: error ${(c.relativeError * 100).toFixed(2)}%`).toBe(true)
    for (const s of speedups) expect(s.insideCi, `${s.gpuCount} GPUs: ${s.measured.toFixed(3)}x`).toBe(true)
  })

  test(`a planted fixed cost (${CAPACITY_FIXED_COST_S} s in ESM-2) moves the measured size, not the production projection`, async ({
    skip,
    annotate,
  }) => {
    if (rc.unavailable) skip(rc.unavailable)
    const planted = withInject('fixed cost', `slow-stage=${ESM2}:${CAPACITY_FIXED_COST_S}`)
    // One machine warm-up, then no warm-up per arm: four arms of up to 90 s each, 3 runs a side, fit one device call.
    await measureConfiguration(cleanConfig(), { ...options(at(CAPACITY_SHIFT_SIZES[0])), policy: ONCE })
    const { clean, fault } = await beside(planted, shiftSizes(), 0)
    const shift = checkShift(clean.stats, fault.stats, cleanConfig().label, planted[0]!.config.label, production())
    await annotate(
      `validation capacity fixed cost: measured-size wall +${(shift.measuredShiftMs / 1000).toFixed(2)} s (planted ${CAPACITY_FIXED_COST_S} s); ${production().toLocaleString('en-US')}-sequence projection ${(shift.cleanMs / 3_600_000).toFixed(3)} h -> ${(shift.plantedMs / 3_600_000).toFixed(3)} h (${(shift.projectedShift * 100).toFixed(2)}%); clean and planted arms interleaved at ${CAPACITY_SHIFT_SIZES.join(' / ')} records`,
    )
    expect(shift.measuredShiftMs).toBeGreaterThan(CAPACITY_FIXED_COST_S * 1000 * 0.75)
    expect(Math.abs(shift.projectedShift)).toBeLessThan(0.01)
  })

  test(`a planted per-batch stall (${CAPACITY_STALL_MS} ms) lowers steady-state utilization and raises the projection`, async ({
    skip,
    annotate,
  }) => {
    if (rc.unavailable) skip(rc.unavailable)
    const planted = withInject('stall', `cpu-stall-ms=${CAPACITY_STALL_MS}`)
    const { clean, fault } = await beside(planted, fitSizes(), 1)
    const shift = checkShift(clean.stats, fault.stats, cleanConfig().label, planted[0]!.config.label, production())
    const steady = (s: CapacityStats) =>
      s.configurations[0]!.stages.find((x) => x.stage === ESM2)?.steadyUtilPct?.median ?? null
    await annotate(
      `validation capacity stall: ESM-2 steady-state utilization ${steady(clean.stats)?.toFixed(1)}% -> ${steady(fault.stats)?.toFixed(1)}%; ${production().toLocaleString('en-US')}-sequence projection ${(shift.cleanMs / 3_600_000).toFixed(3)} h -> ${(shift.plantedMs / 3_600_000).toFixed(3)} h (+${(shift.projectedShift * 100).toFixed(1)}%)`,
    )
    expect(steady(fault.stats)!).toBeLessThan(steady(clean.stats)! - 10)
    expect(shift.projectedShift).toBeGreaterThan(0.1)
  })
})

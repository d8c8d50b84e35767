// Issue 57: a first-ever invocation's first [plan] line forecasts the whole from each file's own plan (its runs and
// sizes) and the cost prior of the host's GPU kind, on either pipeline; the files that will skip are not counted; a GPU
// kind with no prior says so. Checked against what the GPU runs kept in docs/results measured.
import { describe, expect, test } from 'vitest'
import { capacityRuns, type OutlineContext } from '../../../benchmarks/support/file-plans.ts'
import { gpuTestFiles, priorForecast } from '../../../benchmarks/support/prior-forecast.ts'
import {
  type ForecastPrior,
  itemsPerKbAt,
  presetMeanLengthBp,
  readForecastPrior,
  runCostMs,
  runCostOf,
} from '../../../src/config/forecast-prior.ts'
import { priorFileMs } from '../../../src/engine/invocation-progress/prior-forecast.ts'
import { startLine } from '../../../src/engine/invocation-progress/start-line.ts'
import { suiteSettings } from '../../../src/engine/settings.ts'
import { PRESETS } from '../../../src/input/presets.ts'

const H200 = 'NVIDIA H200'
const H100 = 'NVIDIA H100 80GB HBM3'
const FILES = gpuTestFiles()
const firstLine = (
  env: NodeJS.ProcessEnv,
  gpuNames: string[],
  files = FILES,
  jobLimitS = 0,
  prior: ForecastPrior = readForecastPrior(),
) =>
  startLine({
    files,
    earlier: { files: {}, kept: {} },
    prior: priorForecast({ env, gpuNames, user: null, files, prior }),
    runId: 'R',
    resultsRoot: '/results',
    continuable: true,
    jobLimitS,
  })

/**
 * A kept VirNucPro run on one H200 as the outline sees it: 2 runs a size, no warm-up, its budget, the user's sample,
 * priced by the prior's cost of its architecture.
 */
function vnpOnH200(a: {
  budgetGpuMin: number
  architecture: 'v1.0' | 'v2.0'
  user: NonNullable<OutlineContext['user']>
  itemsPerRecord: (perFile: ForecastPrior['perFile'][number]) => (length: number) => number
  env?: Record<string, string>
}) {
  const env = {
    VIRNUCPRO_BENCH_TARGET: 'virnucpro',
    VIRNUCPRO_BENCH_RUNS: '2',
    VIRNUCPRO_BENCH_WARMUP: '0',
    VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: String(a.budgetGpuMin),
    ...a.env,
  }
  const prior = readForecastPrior()
  const cost = runCostOf(prior, {
    pipeline: 'virnucpro',
    scale: 'full',
    kind: H200,
    gpus: 1,
    architecture: a.architecture,
  })!
  const perFile = prior.perFile[0]!
  const o: OutlineContext = {
    env,
    settings: suiteSettings(env),
    pipeline: 'virnucpro',
    gpuCount: 1,
    user: a.user,
    itemsPerRecord: a.itemsPerRecord(perFile),
    gpuMinutes: (size) => runCostMs(cost, perFile, size) / 60_000,
  }
  return { o, cost, perFile }
}

describe('the first [plan] line of a first-ever invocation', () => {
  // docs/results/2026-11-29-main-job-h200: the main job at its defaults on one H200, every file's time in its console.
  test('the main job on one H200: a forecast from the H200 prior, the files that skip named apart and not counted', () => {
    const line = firstLine({}, [H200])
    expect(line).toMatch(
      /^\[plan\] gpu project: 8 files, one at a time: e2e, equivalence, memory, monitor, nvml, runner, scaling, stage-throughput \(8 more skip, each saying why: shard, study, validation\/capacity, .*\)\. Forecast: about (\d+) min \d+ s, from the NVIDIA H200 prior \(e2e 2 runs .*scaling 12 runs .*\); refined after each run; the capacity design may add up to \d+ min \d+ s more \(its GPU-minute budget\)\. /,
    )
    expect(line).not.toContain('at least')
  })

  // Issue 57: how many job limits the work takes, and what the capacity design may add beyond its plan.
  test('the job limits it takes: the planned work in limits of VIRNUCPRO_BENCH_JOB_LIMIT_S, and the most with the design', () => {
    const line = firstLine({}, [H100], FILES, 600)
    const design = /the capacity design may add up to (\d+) min \d+ s more \(its GPU-minute budget\)\./.exec(line)
    // 15 GPU-minutes less the minute the test keeps, less the planned runs' 3 min or so.
    expect(Number(design?.[1])).toBeGreaterThanOrEqual(9)
    expect(Number(design?.[1])).toBeLessThanOrEqual(11)
    // Every file priced (the H100's monitor, nvml and runner times kept since its main job of 2026-12-07): no "at least".
    expect(line).toContain(
      ' Takes 1 job limit of 10 min (VIRNUCPRO_BENCH_JOB_LIMIT_S), 2 if the capacity design spends its budget: the capacity design stops short of each limit, and the same command again goes on.',
    )
    // A longer limit holds the design too; none set, nothing said of limits.
    expect(firstLine({}, [H100], FILES, 3600)).toContain(' Takes 1 job limit of 60 min (VIRNUCPRO_BENCH_JOB_LIMIT_S): ')
    expect(firstLine({}, [H100], FILES, 0)).not.toContain('job limit of')
    // A budget given: the design's most follows it.
    const small = firstLine({ VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '4' }, [H100], FILES, 600)
    expect(small).toMatch(/the capacity design may add up to \d+ s more/)
    expect(small).toContain(' Takes 1 job limit of 10 min (VIRNUCPRO_BENCH_JOB_LIMIT_S): ')
  })

  test("each file's forecast is what the main job measured for it: its plan's runs, sizes and shared runs", () => {
    const prior = priorForecast({ env: {}, gpuNames: [H200], user: null, files: FILES })
    const run = FILES.filter((f) => !('skip' in prior.files[f]!))
    const ms = (suite: string) => priorFileMs(prior, `benchmarks/${suite}.gpu.test.ts`, run)!
    // The console's file times (s); e2e without its large-sample run (48.3 s), left out by default since.
    const measured = { scaling: 225.9, e2e: 118.2 - 48.3, monitor: 24.3, nvml: 7.2, runner: 45.7 }
    for (const [suite, s] of Object.entries(measured)) expect(ms(suite) / 1000 / s, suite).toBeCloseTo(1, 0.9)
    // Memory and stage measure the same 1-GPU runs on the same input: once, by the first (memory, 63.4 s; stage 11.3 s).
    expect((ms('memory') + ms('stage-throughput')) / 1000 / (63.4 + 11.3)).toBeGreaterThan(0.9)
    expect((ms('memory') + ms('stage-throughput')) / 1000 / (63.4 + 11.3)).toBeLessThan(1.1)
    const all = Object.values(measured).reduce((a, b) => a + b, 0) + 63.4 + 11.3
    const forecast = run.filter((f) => !f.includes('equivalence')).reduce((a, f) => a + priorFileMs(prior, f, run)!, 0)
    expect(forecast / 1000 / all).toBeGreaterThan(0.9)
    expect(forecast / 1000 / all).toBeLessThan(1.1)
  })

  // docs/results/2026-11-29-virnucpro-h200-held-out, calls 2 and 3: the user's 16,000 SMALL reads, 2 runs a size, no
  // warm-up, a 15 GPU-minute budget; the suite planned 2,000 / 4,000 / 8,000 and held out 16,000.
  test('the real VirNucPro on one H200: the plan its probe made, and runs the prior prices as they ran', () => {
    const { o, cost, perFile } = vnpOnH200({
      budgetGpuMin: 15,
      architecture: 'v1.0',
      user: { records: 16_000, meanLengthBp: 8_003_192 / 16_000 },
      itemsPerRecord: () => (l) => (2.555 * l) / 1000,
    })
    // Today's planner on that structure (README there: the plan since keeps its largest size half a file past a whole
    // one, 3,937 reads at the probe's 1.27 proteins a read): the probe, three sizes x2 apart, the whole sample held out.
    // That run was v1.0's (the suite's configuration before issue 56): its unit, a file of 10,000 proteins.
    const runs = capacityRuns(o, [1], 'v1.0')
    expect(runs.map((r) => r.count)).toEqual([1, 2, 2, 2, 1])
    expect(runs.at(-1)!.size.records).toBe(16_000)
    expect(runs[3]!.size.records / 3_937).toBeCloseTo(1, 1)
    // The sizes that ran then, priced by the prior; measured: probe 57.5 s; 55.8, 56.1; 72.0, 69.2; 131.0, 129.7;
    // held out 208.7 s (780 s in all).
    const ran = [1_000, 2_000, 2_000, 4_000, 4_000, 8_000, 8_000, 16_000]
    const forecastS = ran.reduce(
      (a, records) => a + runCostMs(cost, perFile, { records, meanLengthBp: o.user!.meanLengthBp }) / 1000,
      0,
    )
    expect(forecastS / 780).toBeGreaterThan(0.9)
    expect(forecastS / 780).toBeLessThan(1.1)
    const line = firstLine({ VIRNUCPRO_BENCH_TARGET: 'virnucpro' }, [H200])
    expect(line).toMatch(
      // An hour and more since the v1.0 baseline's own capacity answer is part of VirNucPro's scaling file (issue 56).
      /Forecast: about (\d+ h )?\d+ min( \d+ s)?, from the NVIDIA H200 prior \(.*scaling \d+ runs .*\); refined after each run; the capacity design may add up to .* more \(its GPU-minute budget\)\./,
    )
  })

  // docs/results/2026-12-07-virnucpro-v2-h200: the suite's default since issue 56, v2.0 (--parallel) on one GPU, on a
  // user's 45,000 reads of 150 bp: 2 runs a size, no warm-up, a 20 GPU-minute budget, no v1.0 baseline.
  test("VirNucPro v2.0 on one H200: priced by the v2.0 cost, as its runs ran; the plan at its probe's proteins a read", () => {
    const meanLengthBp = 6_745_544 / 45_000
    const { o, cost, perFile } = vnpOnH200({
      budgetGpuMin: 20,
      architecture: 'v2.0',
      user: { records: 45_000, meanLengthBp },
      itemsPerRecord: (perFile) => (l) => (itemsPerKbAt(perFile, l) * l) / 1000,
      env: { VIRNUCPRO_BENCH_V1_GPUS: 'none' },
    })
    expect(cost.architecture).toBe('v2.0')
    // At the probe's 1.54 proteins a read, today's planner puts 1.25 buffers of 2,000 on the smallest size (README
    // there: about 1,624 / 3,247 / 6,494 reads), and the whole sample held out.
    const runs = capacityRuns(o, [1], 'v2.0')
    expect(runs.every((r) => r.architecture === 'v2.0')).toBe(true)
    expect(runs.slice(1, 4).map((r) => r.size.records / 1_624)).toEqual([
      expect.closeTo(1, 2),
      expect.closeTo(2, 2),
      expect.closeTo(4, 2),
    ])
    expect(runs.at(-1)!.size.records).toBe(45_000)
    // The sizes that ran then, priced by the prior; measured (README there): the probe 82.5 s; 93.3, 88.9; 97.4, 92.7;
    // 99.2, 107.2 s (661.2 s in all).
    const ran: [number, number][] = [
      [1_000, 82.5],
      [810, 93.3],
      [810, 88.9],
      [1_620, 97.4],
      [1_620, 92.7],
      [3_239, 99.2],
      [3_239, 107.2],
    ]
    const forecastS = (records: number) => runCostMs(cost, perFile, { records, meanLengthBp }) / 1000
    const all = ran.reduce((a, [records]) => a + forecastS(records), 0)
    expect(all / 661.2).toBeGreaterThan(0.9)
    expect(all / 661.2).toBeLessThan(1.1)
    for (const [records, s] of ran.slice(1)) expect(forecastS(records) / s, `${records} reads`).toBeCloseTo(1, 0.9)
    // The forecast of a file prices each run by its own path: the stage suite's shared runs are the base, v2.0.
    const forecast = priorForecast({
      env: { VIRNUCPRO_BENCH_TARGET: 'virnucpro' },
      gpuNames: [H200],
      user: null,
      files: ['benchmarks/stage-throughput.gpu.test.ts'],
    })
    const shared = forecast.files['benchmarks/stage-throughput.gpu.test.ts']!
    const settings = suiteSettings({ VIRNUCPRO_BENCH_TARGET: 'virnucpro' })
    const size = {
      records: settings.records || PRESETS[settings.preset].records,
      meanLengthBp: presetMeanLengthBp(settings.preset),
    }
    expect('shared' in shared && shared.shared).toMatchObject({
      runs: 4,
      ms: expect.closeTo(4 * runCostMs(cost, perFile, size), 6),
    })
  })

  test('VirNucPro on an H100, whose prior measured v1.0 only: its v2.0 runs are not counted, said; its v1.0 runs priced', () => {
    const env = { VIRNUCPRO_BENCH_TARGET: 'virnucpro' }
    const prior = priorForecast({ env, gpuNames: [H100], user: null, files: FILES })
    // Not "no prior for the kind": the H100 keeps VirNucPro's v1.0 cost.
    expect(prior.missing).toBeNull()
    const v2Only = prior.files['benchmarks/e2e.gpu.test.ts']!
    expect(v2Only).toMatchObject({ ms: null, unknown: ['1-GPU v2.0 runs (no NVIDIA H100 80GB HBM3 prior for v2.0)'] })
    // The scaling file's v1.0 baseline and memory's OOM run (no --parallel) are v1.0: priced, the file at least that.
    for (const file of ['benchmarks/scaling.gpu.test.ts', 'benchmarks/memory.gpu.test.ts'])
      expect(prior.files[file], file).toMatchObject({
        ms: expect.any(Number),
        unknown: ['1-GPU v2.0 runs (no NVIDIA H100 80GB HBM3 prior for v2.0)'],
      })
    const line = firstLine(env, [H100])
    expect(line).toMatch(
      /Forecast: at least about .*, from the NVIDIA H100 80GB HBM3 prior \(.*scaling \d+ runs .*\); not counted: /,
    )
    expect(line).toContain('not counted: 1-GPU v2.0 runs (no NVIDIA H100 80GB HBM3 prior for v2.0)')
    // A kind with no VirNucPro cost at all: none, and the kinds it has one for.
    expect(firstLine(env, ['NVIDIA A100-SXM4-80GB'])).toContain(
      'no prior for NVIDIA A100-SXM4-80GB (virnucpro pipeline; kept for: NVIDIA H200, NVIDIA H100 80GB HBM3)',
    )
    // The reference pipeline's costs tell no path apart: its v2.0 runs on the H100 are priced.
    expect(firstLine({}, [H100])).not.toMatch(/v\d\.\d runs/)
  })

  // VirNucPro reads --persistent-models only in its multi-GPU pools: the memory file, on one GPU, runs no pair.
  test("memory on one GPU: VirNucPro's OOM run and the shared base runs, no persistent-models pair", () => {
    const env = { VIRNUCPRO_BENCH_TARGET: 'virnucpro' }
    const prior = priorForecast({ env, gpuNames: [H200], user: null, files: ['benchmarks/memory.gpu.test.ts'] })
    expect(prior.files['benchmarks/memory.gpu.test.ts']).toMatchObject({ runs: 1, shared: { runs: 4 } })
  })

  test('sizes the user gave: no probe; held out a generated size twice the largest, or the sample where it is room', () => {
    const prior = readForecastPrior()
    const cost = runCostOf(prior, { pipeline: 'reference', scale: 'full', kind: H200, gpus: 1, architecture: 'v2.0' })!
    const outline = (user: OutlineContext['user']): OutlineContext => {
      const env = { VIRNUCPRO_BENCH_SIZES: '1000,4000' }
      return {
        env,
        settings: suiteSettings(env),
        pipeline: 'reference',
        gpuCount: 1,
        user,
        itemsPerRecord: null,
        gpuMinutes: (size) => runCostMs(cost, null, size) / 60_000,
      }
    }
    const sizes = (user: OutlineContext['user']) => capacityRuns(outline(user)).map((r) => [r.size.records, r.count])
    expect(sizes(null)).toEqual([
      [1_000, 1],
      [1_000, 3],
      [4_000, 3],
      [8_000, 1],
    ])
    expect(sizes({ records: 20_000, meanLengthBp: 850 }).at(-1)).toEqual([20_000, 1])
    expect(sizes({ records: 5_000, meanLengthBp: 850 }).at(-1)).toEqual([4_000, 3])
  })

  test('a GPU kind with no prior says so plainly, and what it has; the forecast then follows the first run', () => {
    const line = firstLine({}, ['NVIDIA A100-SXM4-80GB'])
    expect(line).toContain(
      'Forecast: no earlier invocation of this plan under this key in /results ran these files, and the cost prior has no figure here: no prior for NVIDIA A100-SXM4-80GB (reference pipeline at full scale; kept for: NVIDIA H200, NVIDIA H100 80GB HBM3), so the forecast follows the first run.',
    )
  })

  test('a GPU count the prior has no runs of, and files timed whole on another kind only: not counted, said', () => {
    const line = firstLine({}, [H100, H100, H100, H100])
    expect(line).toMatch(/Forecast: at least about .*, from the NVIDIA H100 80GB HBM3 prior \(.*\); not counted: /)
    expect(line).toContain('4-GPU runs (no NVIDIA H100 80GB HBM3 prior for 4 GPUs)')
    // The same prior with the H100's whole-file times left out: those files are named, not priced from the H200's.
    const kept = readForecastPrior()
    const withoutH100Files = { ...kept, fixedFiles: kept.fixedFiles.filter((f) => f.kind !== H100) }
    const without = firstLine({}, [H100], FILES, 0, withoutH100Files)
    expect(without).toContain('monitor, nvml, runner (no NVIDIA H100 80GB HBM3 time kept)')
  })

  test('files asked for are counted (validation, study), those it cannot plan named; the CPU stand-in on the CPU', () => {
    const asked = firstLine({ VIRNUCPRO_BENCH_VALIDATION: '1', VIRNUCPRO_BENCH_STUDY: '1' }, [H200])
    expect(asked).toMatch(
      /^\[plan\] gpu project: 14 files, one at a time: .*\(2 more skip, each saying why: shard, validation\/multi-gpu\)/,
    )
    expect(asked).toMatch(/Forecast: at least about /)
    expect(asked).toContain(
      'not counted: the settings study (it forecasts its screen after its warm-up), the validation known answers;',
    )
    expect(asked).not.toMatch(/validation\/capacity \d/)
    const cpu = firstLine(
      { VIRNUCPRO_BENCH_DEVICE: 'cpu', VIRNUCPRO_BENCH_MODEL_SCALE: 'tiny', VIRNUCPRO_BENCH_PRESET: 'TINY' },
      ['NVIDIA H100 (fake)'],
      ['benchmarks/e2e.gpu.test.ts', 'benchmarks/stage-throughput.gpu.test.ts'],
    )
    expect(cpu).toMatch(
      /Forecast: about \d+ (min \d+ )?s, from the CPU prior \(e2e 2 runs .*, stage-throughput 4 runs .*\); refined after each run\./,
    )
  })
})

/**
 * What every suite file needs, once per file: the suite context (run ID from the global setup, results directory,
 * thresholds, target profile), the settings (env overrides), the profile's configurations, the target preflight (a
 * reason to skip: not installed, with how to install), fixtures by preset, and the monitor options.
 */
import { beforeAll, inject } from 'vitest'
import { createSuiteContext, type SuiteContext } from '../../src/engine/context.ts'
import { configsFor, type ProfileConfigs } from '../../src/engine/profile-configs.ts'
import { JOB_END_KEEP_MS, type SuiteSettings, suiteSettings } from '../../src/engine/settings.ts'
import type { PresetName } from '../../src/input/presets.ts'
import { createInputResolver, type InputResolver } from '../../src/input/resolver.ts'
import type { SuiteMeasure } from '../../src/suites/index.ts'
import { cachedDataset, DATASET_CACHE_DIR } from './dataset.ts'
import { gpuAvailability, gpuAvailable } from './gpu.ts'

export interface RunContext {
  ctx: SuiteContext
  settings: SuiteSettings
  configs: ProfileConfigs
  gpuCount: number
  /** Every suite's input: VIRNUCPRO_BENCH_INPUT (validated at creation) or the generated presets. */
  inputs: InputResolver
  /** Why the target cannot run here (with how to install it), or null when it can. */
  unavailable: string | null
  /**
   * When a capacity measurement must be done to leave the invocation within its job limit (VIRNUCPRO_BENCH_JOB_LIMIT_S
   * from the invocation's start, less JOB_END_KEEP_MS), or undefined where there is no limit.
   */
  jobDeadlineMs: number | undefined
  measure(input: string): SuiteMeasure
}

/** The capacity measurement's deadline under a job limit of `jobLimitS` seconds (0: none) from `startMs`. */
export const jobDeadlineMs = (startMs: number | undefined, jobLimitS: number): number | undefined =>
  jobLimitS > 0 && startMs !== undefined ? startMs + jobLimitS * 1000 - JOB_END_KEEP_MS : undefined

const INSTALL_HINT: Record<string, string> = {
  reference: 'install torch for python3 (or set REFPIPE_PYTHON to an interpreter that has it)',
  virnucpro: 'set VIRNUCPRO_DIR to a VirNucPro checkout and VIRNUCPRO_PYTHON to its interpreter',
}

/**
 * Builds the context; call in beforeAll after checking gpuAvailable().
 * @throws the input's one clear error (file and line) when VIRNUCPRO_BENCH_INPUT is bad, before any run starts.
 */
export async function createRunContext(gpusNeeded = 1): Promise<RunContext> {
  const settings = suiteSettings()
  const inputs = await createInputResolver({
    userInput: process.env.VIRNUCPRO_BENCH_INPUT,
    cacheDir: DATASET_CACHE_DIR,
  })
  // The global setup's claim on the run (run-context-setup.ts): this worker writes as part of its invocation.
  const writer = inject('writer') ?? undefined
  const ctx = { ...(await createSuiteContext(inject('runId'), process.env, inject('resultsRoot'), writer)), inputs }
  const availability = gpuAvailability()
  // On the CPU (VIRNUCPRO_BENCH_DEVICE=cpu, settings.ts) the configurations ask for no GPU, so neither does the check.
  const preflight = await ctx.profile.preflight(process.env, settings.device === 'cpu' ? 0 : gpusNeeded)
  const unavailable =
    preflight.state === 'ready'
      ? null
      : `target '${ctx.profile.name}' cannot run: ${preflight.reason} (${INSTALL_HINT[ctx.profile.name] ?? ''})`
  return {
    ctx,
    settings,
    // Every configuration of every suite, with the user's own pipeline options (VIRNUCPRO_BENCH_PIPELINE_ARGS).
    configs: configsFor(ctx.profile.name, settings.modelScale, settings.device, settings.pipelineArgs),
    gpuCount: availability.ok ? availability.gpuCount : 0,
    inputs,
    unavailable,
    jobDeadlineMs: jobDeadlineMs(inject('invocationStartMs'), settings.jobLimitS),
    measure: (input) => ({
      input,
      monitor: { intervalMs: settings.monitorIntervalMs },
      policy: settings.policy,
      timeoutMs: settings.runTimeoutMs,
    }),
  }
}

/** The first FASTA file of a cached generated fixture (coding model): the validation campaign's known-answer inputs. */
export async function fixtureInput(preset: PresetName, records = 0): Promise<string> {
  const dataset = await cachedDataset({ preset, overrides: { seed: 1, ...(records > 0 && { records }) } })
  return dataset.files[0]!
}

/** GPU indices 0..n-1. */
export const firstGpus = (n: number) => Array.from({ length: n }, (_, i) => i)

/** A GPU test file's run context and its input (the user's, or the suite preset's fixture), set up once for the file. */
export interface GpuSuite {
  readonly rc: RunContext
  readonly input: string
}

/**
 * Registers the file's beforeAll: on a machine with a GPU, the run context and the suite preset's fixture (generated
 * once, cached); without one nothing is set up and the gpu project's setup skips every test.
 */
export function useGpuSuite(gpusNeeded = 1): GpuSuite {
  const state: { rc?: RunContext; input?: string } = {}
  beforeAll(async () => {
    if (!gpuAvailable()) return
    state.rc = await createRunContext(gpusNeeded)
    state.input = (await state.rc.inputs.input(state.rc.settings.preset, state.rc.settings.records)).file
  })
  return {
    get rc() {
      return state.rc!
    },
    get input() {
      return state.input!
    },
  }
}

/**
 * The capacity answer's configurations: 1, 2, 4, 8 GPUs as the host holds them (a k-GPU answer needs a host of k
 * GPUs), or those VIRNUCPRO_BENCH_CAPACITY_GPUS asks for, 1 always (the baseline every other count is compared with).
 */
export function capacityConfigs(rc: Pick<RunContext, 'settings' | 'gpuCount' | 'configs'>) {
  const asked = rc.settings.capacityGpus ?? [1, 2, 4, 8]
  const gpus = [...new Set([1, ...asked])].filter((n) => n <= rc.gpuCount).sort((a, b) => a - b)
  return { gpus, configs: gpus.map((n) => ({ config: rc.configs.base(firstGpus(n)), gpuCount: n })) }
}

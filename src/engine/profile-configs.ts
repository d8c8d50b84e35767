/**
 * Configurations per target profile: the base run on N GPUs, the optimization matrix (each switch on the path that
 * reads it: optimization-matrix/), the equivalence pair, a configuration that cannot fit (OOM), and the
 * persistent-models pair where the target has one. configsFor adds the user's own pipeline options to every one.
 */
import { readSetting } from '../config/variables.ts'
import type { Architecture } from '../pipeline/architecture-line.ts'
import type { Configuration } from './configuration.ts'
import {
  type MakeConfiguration,
  type OptimizationMatrix,
  optimizationMatrix,
  REFERENCE_SWITCHES,
  VIRNUCPRO_SWITCHES,
} from './optimization-matrix/index.ts'
import { type TargetDevice, targetDevice } from './settings.ts'

export interface ProfileConfigs {
  /**
   * The configuration users run on `gpus`: VirNucPro's recommended v2.0 (`--parallel`: async DataLoader, packing, one
   * model build per worker) on every GPU count, one GPU included (issue 56: `--gpus 0` alone runs v1.0, so every
   * k-against-1 mixed architectures). Labelled with it: `1 GPU, v2.0`.
   */
  base(gpus: number[]): Configuration
  /** The v1.0 path on `gpus`, the baseline v2.0 is judged against: no `--parallel` on one GPU, `--v1-fallback` on more. */
  v1(gpus: number[]): Configuration
  /** Baseline with every optimization that acts on these GPUs off, then each one alone, then all together. */
  matrix(gpus: number[]): OptimizationMatrix
  /** [reference, candidate] whose outputs must agree. */
  equivalence(gpus: number[]): [Configuration, Configuration]
  oom(gpus: number[]): Configuration
  /** [on, off], or the reason there is none. */
  persistentModels(gpus: number[]): [Configuration, Configuration] | string
}

// NVML numbers GPUs by PCI bus; CUDA must agree so that --gpus and attribution speak of the same GPU.
const PCI_ORDER = { CUDA_DEVICE_ORDER: 'PCI_BUS_ID' }
const gpuLabel = (gpus: number[]) => `${gpus.length} GPU${gpus.length === 1 ? '' : 's'}`

/** The options that pick an architecture on `gpus` (both pipelines read them alike: reference-pipeline/README.md). */
export const ARCHITECTURE_ARGS: Readonly<Record<Architecture, (gpus: number[]) => string[]>> = {
  'v2.0': () => ['--parallel'],
  'v1.0': (gpus) => (gpus.length > 1 ? ['--v1-fallback'] : []),
}

/**
 * The architecture a command line asks for, as both pipelines read it (VirNucPro's `cli/predict.py`: `use_v2 =
 * parallel and not v1_fallback`, a list of GPUs turning `--parallel` on; the reference pipeline's --cpu-workers the
 * same): what a configuration built from options expects its log to say (the log decides what ran).
 */
export function architectureOfArgs(args: readonly string[], gpuCount: number): Architecture {
  if (args.includes('--v1-fallback')) return 'v1.0'
  const workers = Number(args[args.indexOf('--cpu-workers') + 1])
  const parallel = args.includes('--parallel') || gpuCount > 1 || (args.includes('--cpu-workers') && workers > 1)
  return parallel ? 'v2.0' : 'v1.0'
}

/** A configuration of `architecture` on `gpus`, named by both: `2 GPUs, v1.0`. */
function onArchitecture(
  architecture: Architecture,
  gpus: number[],
  args: readonly string[],
  env: Record<string, string>,
): Configuration {
  return {
    label: `${gpuLabel(gpus)}, ${architecture}`,
    gpus,
    extraArgs: [...args, ...ARCHITECTURE_ARGS[architecture](gpus)],
    env,
    architecture,
  }
}

/** The bundled reference pipeline at `scale`: packing, fp16 and a 32k token budget are its optimizations. */
export function referenceConfigs(scale: string, device: TargetDevice = 'gpu'): ProfileConfigs {
  const make = (gpus: number[], label: string, args: string[]): Configuration => ({
    label: `${gpuLabel(gpus)}, ${label}`,
    gpus,
    extraArgs: ['--model-scale', scale, ...args],
    env: PCI_ORDER,
  })
  const fp32 = ['--precision', 'fp32']
  const fp16 = ['--precision', 'fp16']
  return {
    base: (gpus) => onArchitecture('v2.0', gpus, ['--model-scale', scale], PCI_ORDER),
    v1: (gpus) => onArchitecture('v1.0', gpus, ['--model-scale', scale], PCI_ORDER),
    matrix: (gpus) =>
      optimizationMatrix(REFERENCE_SWITCHES, gpus.length, device, (label, args, env) => ({
        ...make(gpus, label, args),
        env: { ...PCI_ORDER, ...env },
      })),
    equivalence: (gpus) => [make(gpus, 'fp32', fp32), make(gpus, 'fp16', fp16)],
    oom: (gpus) => make(gpus, 'oom injected', ['--inject', 'oom']),
    // refpipe accepts the flag and logs it, and builds no model fewer with it (reference-pipeline/README.md).
    persistentModels: () => 'the reference pipeline has no persistent models: its --persistent-models changes nothing',
  }
}

/** VirNucPro: packing, fp16 and CUDA streams are its optimizations (env switches and flags, UPSTREAM.md). */
export function virnucproConfigs(device: TargetDevice = 'gpu'): ProfileConfigs {
  const make = (gpus: number[], label: string, args: string[], env: Record<string, string> = {}): Configuration => ({
    label: `${gpuLabel(gpus)}, ${label}`,
    gpus,
    extraArgs: args,
    env: { ...PCI_ORDER, ...env },
  })
  const noPacking = { VIRNUCPRO_DISABLE_PACKING: 'true' }
  return {
    base: (gpus) => onArchitecture('v2.0', gpus, [], PCI_ORDER),
    v1: (gpus) => onArchitecture('v1.0', gpus, [], PCI_ORDER),
    matrix: (gpus) => {
      const build: MakeConfiguration = (label, args, env) => make(gpus, label, args, env)
      return optimizationMatrix(VIRNUCPRO_SWITCHES, gpus.length, device, build)
    },
    // Packing is read by the v2.0 async inference alone (optimization-matrix/virnucpro-switches.ts): without --parallel
    // one GPU runs v1.0 and the pair would compare one output with itself.
    equivalence: (gpus) => [
      make(gpus, 'v2.0, packing off', ['--parallel'], noPacking),
      make(gpus, 'v2.0, packing on', ['--parallel']),
    ],
    oom: (gpus) => make(gpus, 'oversize ESM-2 batch', ['--esm-batch-size', '100000000']),
    // Read only by the multi-GPU worker pools (pipeline/prediction.py BatchQueueManager use_persistent_pool):
    // DNABERT-S on 2 or more GPUs with --parallel. On 1 GPU both sides would be one run.
    persistentModels: (gpus) =>
      gpus.length < 2
        ? 'VirNucPro reads --persistent-models only in its multi-GPU worker pools (2 or more GPUs with --parallel): on 1 GPU it changes nothing'
        : [
            make(gpus, 'v2.0, persistent models', ['--parallel', '--persistent-models']),
            make(gpus, 'v2.0, no persistent models', ['--parallel', '--no-persistent-models']),
          ],
  }
}

/**
 * The profile's configurations on `device` (default VIRNUCPRO_BENCH_DEVICE, else gpu), each with the user's own
 * pipeline options (default VIRNUCPRO_BENCH_PIPELINE_ARGS): the one place every configuration of every suite is made.
 * @throws SuiteSettingsError for a bad VIRNUCPRO_BENCH_DEVICE or VIRNUCPRO_BENCH_PIPELINE_ARGS.
 */
export function configsFor(
  profile: string,
  scale: string,
  device: TargetDevice = targetDevice(),
  pipelineArgs: readonly string[] = readSetting(process.env, 'VIRNUCPRO_BENCH_PIPELINE_ARGS') ?? [],
): ProfileConfigs {
  const own = profile === 'virnucpro' ? virnucproConfigs(device) : referenceConfigs(scale, device)
  const configs = withPipelineArgs(own, pipelineArgs)
  return device === 'cpu' ? onCpu(configs, profile) : configs
}

/** Every configuration `configs` makes, passed through `change` (made for its GPUs); `rename` relabels the arms not run. */
export function mapConfigurations(
  configs: ProfileConfigs,
  change: (gpus: number[]) => (config: Configuration) => Configuration,
  rename: (label: string) => string = (label) => label,
): ProfileConfigs {
  return {
    base: (gpus) => change(gpus)(configs.base(gpus)),
    v1: (gpus) => change(gpus)(configs.v1(gpus)),
    matrix: (gpus) => {
      const { arms, notRun } = configs.matrix(gpus)
      return {
        arms: arms.map((arm) => ({ ...arm, config: change(gpus)(arm.config) })),
        notRun: notRun.map((n) => ({ ...n, label: rename(n.label) })),
      }
    },
    equivalence: (gpus) => configs.equivalence(gpus).map(change(gpus)) as [Configuration, Configuration],
    oom: (gpus) => change(gpus)(configs.oom(gpus)),
    persistentModels: (gpus) => {
      const pair = configs.persistentModels(gpus)
      return typeof pair === 'string' ? pair : (pair.map(change(gpus)) as [Configuration, Configuration])
    },
  }
}

/**
 * The user's own `predict` options (VIRNUCPRO_BENCH_PIPELINE_ARGS, e.g. `--esm-batch-size 4096 --threads 32`) in front
 * of every configuration's own: the CLI's last occurrence of an option wins, so a configuration that measures an option
 * (a matrix arm's token budget, the OOM configuration's batch) keeps its value, and every other runs with the user's.
 * The options the suite sets itself were refused when the setting was read (config/pipeline-args.ts).
 */
export function withPipelineArgs(configs: ProfileConfigs, pipelineArgs: readonly string[]): ProfileConfigs {
  if (pipelineArgs.length === 0) return configs
  return mapConfigurations(configs, () => (config) => ({
    ...config,
    extraArgs: [...pipelineArgs, ...(config.extraArgs ?? [])],
  }))
}

/**
 * Every configuration moved to the CPU, for a campaign's dry-run where there is no GPU (settings.ts TargetDevice): no
 * GPU selection (`-d cpu`), the label marked `(cpu)`; the reference pipeline stands in for k GPUs with k worker
 * processes (`--cpu-workers`, as the unit tests do) and no DataLoader workers (`-w 0`), so a small CPU node is not
 * oversubscribed. VirNucPro has no worker switch: it runs as one process on the CPU.
 */
export function onCpu(configs: ProfileConfigs, profile: string): ProfileConfigs {
  const move =
    (gpus: number[]) =>
    (config: Configuration): Configuration => {
      const workers =
        profile === 'virnucpro' ? [] : ['-w', '0', ...(gpus.length > 1 ? ['--cpu-workers', `${gpus.length}`] : [])]
      return {
        ...config,
        label: `${config.label} (cpu)`,
        gpus: null,
        device: 'cpu',
        extraArgs: [...(config.extraArgs ?? []), ...workers],
      }
    }
  return mapConfigurations(configs, move, (label) => `${label} (cpu)`)
}

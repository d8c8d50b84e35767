/**
 * Configurations per target profile: the base run on N GPUs, the optimizations a profile lists (for the impact matrix),
 * the equivalence pair, a configuration that cannot fit (OOM), and the persistent-models pair where the target has it.
 */
import type { Architecture } from '../pipeline/architecture-line.ts'
import type { Configuration } from './configuration.ts'
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
  /** Baseline with every optimization off, then each one alone, then all together. */
  matrix(gpus: number[]): Configuration[]
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

/** The bundled reference pipeline at `scale`: fp16 and a 32k token budget are its optimizations. */
export function referenceConfigs(scale: string): ProfileConfigs {
  const make = (gpus: number[], label: string, args: string[]): Configuration => ({
    label: `${gpuLabel(gpus)}, ${label}`,
    gpus,
    extraArgs: ['--model-scale', scale, ...args],
    env: PCI_ORDER,
  })
  const fp32 = ['--precision', 'fp32']
  const fp16 = ['--precision', 'fp16']
  const small = ['--esm-batch-size', '8192', '--dnabert-batch-size', '8192']
  return {
    base: (gpus) => onArchitecture('v2.0', gpus, ['--model-scale', scale], PCI_ORDER),
    v1: (gpus) => onArchitecture('v1.0', gpus, ['--model-scale', scale], PCI_ORDER),
    matrix: (gpus) => [
      make(gpus, 'baseline (fp32, 8k tokens)', [...fp32, ...small]),
      make(gpus, 'fp16', [...fp16, ...small]),
      make(gpus, '32k token budget', fp32),
      make(gpus, 'all (fp16, 32k tokens)', fp16),
    ],
    equivalence: (gpus) => [make(gpus, 'fp32', fp32), make(gpus, 'fp16', fp16)],
    oom: (gpus) => make(gpus, 'oom injected', ['--inject', 'oom']),
    persistentModels: () => 'the reference pipeline has no --persistent-models flag',
  }
}

/** VirNucPro: packing, fp16 and CUDA streams are its optimizations (env switches and flags, UPSTREAM.md). */
export function virnucproConfigs(): ProfileConfigs {
  const make = (gpus: number[], label: string, args: string[], env: Record<string, string> = {}): Configuration => ({
    label: `${gpuLabel(gpus)}, ${label}`,
    gpus,
    extraArgs: args,
    env: { ...PCI_ORDER, ...env },
  })
  const noPacking = { VIRNUCPRO_DISABLE_PACKING: 'true' }
  const noFp16 = { VIRNUCPRO_DISABLE_FP16: '1' }
  return {
    base: (gpus) => onArchitecture('v2.0', gpus, [], PCI_ORDER),
    v1: (gpus) => onArchitecture('v1.0', gpus, [], PCI_ORDER),
    matrix: (gpus) => [
      make(gpus, 'baseline (no packing, fp32, no streams)', ['--no-cuda-streams'], { ...noPacking, ...noFp16 }),
      make(gpus, 'packing', ['--no-cuda-streams'], noFp16),
      make(gpus, 'fp16', ['--no-cuda-streams'], noPacking),
      make(gpus, 'cuda streams', ['--cuda-streams'], { ...noPacking, ...noFp16 }),
      make(gpus, 'all', ['--cuda-streams']),
    ],
    equivalence: (gpus) => [make(gpus, 'packing off', [], noPacking), make(gpus, 'packing on', [])],
    oom: (gpus) => make(gpus, 'oversize ESM-2 batch', ['--esm-batch-size', '100000000']),
    persistentModels: (gpus) => [
      make(gpus, 'persistent models', ['--persistent-models']),
      make(gpus, 'no persistent models', ['--no-persistent-models']),
    ],
  }
}

/**
 * The profile's configurations on `device` (default VIRNUCPRO_BENCH_DEVICE, else gpu).
 * @throws SuiteSettingsError for a bad VIRNUCPRO_BENCH_DEVICE.
 */
export function configsFor(profile: string, scale: string, device: TargetDevice = targetDevice()): ProfileConfigs {
  const configs = profile === 'virnucpro' ? virnucproConfigs() : referenceConfigs(scale)
  return device === 'cpu' ? onCpu(configs, profile) : configs
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
  return {
    base: (gpus) => move(gpus)(configs.base(gpus)),
    v1: (gpus) => move(gpus)(configs.v1(gpus)),
    matrix: (gpus) => configs.matrix(gpus).map(move(gpus)),
    equivalence: (gpus) => configs.equivalence(gpus).map(move(gpus)) as [Configuration, Configuration],
    oom: (gpus) => move(gpus)(configs.oom(gpus)),
    persistentModels: (gpus) => {
      const pair = configs.persistentModels(gpus)
      return typeof pair === 'string' ? pair : (pair.map(move(gpus)) as [Configuration, Configuration])
    },
  }
}

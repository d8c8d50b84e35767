import type { Launcher, TargetProfile } from './profiles.ts'

/** Options every profile understands (the UPSTREAM.md `predict` contract). */
export interface PredictOptions {
  /** Input FASTA. */
  input: string
  /** Output directory; always passed with `--force` so an existing one never makes the CLI prompt. */
  outputDir: string
  /** Physical GPU indices to use; omitted: the target's default (all GPUs). */
  gpus?: number[]
  /** `-m/--model-type`: '300', '500' or 'custom'. */
  modelType?: string
  /** `-d/--device`, e.g. 'cpu' or 'cuda'. */
  device?: string
  /** Group options placed before `predict` (`-v`, `-c CONFIG`). */
  groupArgs?: string[]
  /** Further `predict` options, passed last (e.g. `--model-scale tiny`, `--inject oom=1`). */
  extraArgs?: string[]
  /** Extra environment for the target (VIRNUCPRO_DISABLE_FP16, PYTORCH_CUDA_ALLOC_CONF, ...). */
  env?: Record<string, string>
}

export interface Command {
  file: string
  args: string[]
  cwd?: string
  /** Only the variables we set on top of the inherited environment. */
  env: Record<string, string>
}

/** Builds the argument array (never a shell string) for one run. */
export function buildCommand(profile: TargetProfile, launcher: Launcher, options: PredictOptions): Command {
  const args = [...launcher.args, ...(options.groupArgs ?? []), 'predict', options.input, '-o', options.outputDir]
  if (options.modelType !== undefined) args.push('-m', options.modelType)
  if (options.device !== undefined) args.push('-d', options.device)
  const env = { ...launcher.env, ...options.env }
  if (options.gpus !== undefined) {
    if (profile.gpuSelection === 'gpus-flag') args.push('--gpus', options.gpus.join(','))
    else env.CUDA_VISIBLE_DEVICES = options.gpus.join(',')
  }
  args.push('--force', ...(options.extraArgs ?? []))
  return { file: launcher.file, args, cwd: launcher.cwd, env }
}

import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { findTorchPython } from '../platform/python.ts'
import { type Preflight, probePython } from './preflight.ts'

/**
 * Target profiles: how to start a pipeline that speaks the VirNucPro CLI contract (docs/UPSTREAM.md). Everything
 * after the launcher (the `predict` options, `--force`, closed stdin, exit codes, log format, outputs) is shared.
 */

/** The program and arguments up to (not including) `predict`, with its working directory and extra environment. */
export interface Launcher {
  file: string
  args: string[]
  cwd?: string
  env: Record<string, string>
}

export type LauncherResult = { state: 'ready'; launcher: Launcher } | { state: 'unavailable'; reason: string }

export type ExitClassName = 'completed' | 'partial' | 'oom' | 'failed'

export interface TargetProfile {
  name: string
  /** Resolves the interpreter and paths; an `unavailable` reason when that cannot be done here. */
  launcher(env: NodeJS.ProcessEnv): Promise<LauncherResult>
  /** `gpus-flag`: pass `--gpus 0,1` (the CLI sets CUDA_VISIBLE_DEVICES); `cuda-visible-devices`: set the variable. */
  gpuSelection: 'gpus-flag' | 'cuda-visible-devices'
  /** Exit code -> class; codes not listed are failures. */
  exitCodes: Record<number, ExitClassName>
  /** Whether the target can run here with `gpusNeeded` GPUs. */
  preflight(env: NodeJS.ProcessEnv, gpusNeeded: number): Promise<Preflight>
}

/** UPSTREAM.md: 0 success, 1 failure, 2 partial success, 4 CUDA out of memory. */
export const UPSTREAM_EXIT_CODES: Record<number, ExitClassName> = {
  0: 'completed',
  1: 'failed',
  2: 'partial',
  4: 'oom',
}

/** Repository root, for the bundled reference pipeline. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url))

async function preflightWith(profile: TargetProfile, env: NodeJS.ProcessEnv, gpusNeeded: number, module: string) {
  const resolved = await profile.launcher(env)
  if (resolved.state === 'unavailable') return resolved
  const { file, cwd, env: extra } = resolved.launcher
  return probePython({ python: file, module, cwd, env: extra, gpusNeeded })
}

/** The real CLI: `python -m virnucpro predict` in the checkout `VIRNUCPRO_DIR`, python from `VIRNUCPRO_PYTHON`. */
export const virnucproProfile: TargetProfile = {
  name: 'virnucpro',
  gpuSelection: 'gpus-flag',
  exitCodes: UPSTREAM_EXIT_CODES,
  async launcher(env) {
    const dir = env.VIRNUCPRO_DIR
    if (!dir) return { state: 'unavailable', reason: 'VIRNUCPRO_DIR is not set (it must name a VirNucPro checkout)' }
    if (!existsSync(dir)) return { state: 'unavailable', reason: `VIRNUCPRO_DIR does not exist: ${dir}` }
    const file = env.VIRNUCPRO_PYTHON || 'python3'
    return { state: 'ready', launcher: { file, args: ['-m', 'virnucpro'], cwd: dir, env: {} } }
  },
  preflight(env, gpusNeeded) {
    return preflightWith(this, env, gpusNeeded, 'virnucpro')
  },
}

/** The bundled reference pipeline: `PYTHONPATH=reference-pipeline python -m refpipe predict`. */
export const referenceProfile: TargetProfile = {
  name: 'reference',
  gpuSelection: 'gpus-flag',
  exitCodes: UPSTREAM_EXIT_CODES,
  async launcher(env) {
    // findTorchPython probes synchronously once per process (cached); the launcher stays async for other profiles.
    const python = findTorchPython(env)
    if (python.state === 'missing') return { state: 'unavailable', reason: python.reason }
    const file = python.executable
    const path = fileURLToPath(new URL('../../reference-pipeline', import.meta.url))
    return { state: 'ready', launcher: { file, args: ['-m', 'refpipe'], env: { PYTHONPATH: path } } }
  },
  preflight(env, gpusNeeded) {
    return preflightWith(this, env, gpusNeeded, 'refpipe')
  },
}

export const PROFILES: Record<string, TargetProfile> = { virnucpro: virnucproProfile, reference: referenceProfile }

/** A profile name that is not one of PROFILES. */
export class TargetConfigError extends Error {
  override name = 'TargetConfigError'
}

/**
 * Picks the profile: the explicit name (from config) first, then `VIRNUCPRO_BENCH_TARGET`, then `reference`.
 * @throws TargetConfigError naming the bad value and where it came from.
 */
export function selectProfile(name?: string, env: NodeJS.ProcessEnv = process.env): TargetProfile {
  const source = name ? 'config' : env.VIRNUCPRO_BENCH_TARGET ? 'VIRNUCPRO_BENCH_TARGET' : 'default'
  const chosen = name || env.VIRNUCPRO_BENCH_TARGET || 'reference'
  const profile = PROFILES[chosen]
  if (!profile)
    throw new TargetConfigError(
      `unknown target '${chosen}' (from ${source}); expected one of: ${Object.keys(PROFILES).join(', ')}`,
    )
  return profile
}

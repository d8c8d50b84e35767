/**
 * A configuration: everything that decides how the target runs (GPUs, device, extra options, environment). Two runs
 * of the same configuration on the same input are repeats; the key names one for the shared-run cache.
 */
import { createHash } from 'node:crypto'
import type { Architecture } from '../pipeline/architecture-line.ts'

export interface Configuration {
  /** Short human label, e.g. `1 GPU` or `fp16`; also names the log and output directories. */
  label: string
  /** Physical GPU indices; null: the target's default (all GPUs, or none on the CPU). */
  gpus: number[] | null
  /** `-d/--device`; omitted: the target's default. */
  device?: string
  /** `-m/--model-type`. */
  modelType?: string
  /** Further `predict` options, e.g. `['--model-scale', 'full', '--precision', 'fp16']`. */
  extraArgs?: string[]
  /** Extra environment for the target. */
  env?: Record<string, string>
  /**
   * The pipeline architecture it asks for (issue 56: VirNucPro's v1.0 or v2.0, the reference pipeline's the same): each
   * run's log must name it, or the run fails (pipeline/architecture-check.ts). Absent: not checked.
   */
  architecture?: Architecture
}

/** The configuration as the result record stores it (`runs[].config`): flat, JSON-safe values. */
export function configRecord(config: Configuration): Record<string, string | number | boolean | null | number[]> {
  return {
    /** The configuration's name: runs of one setup share it (reports group by it). */
    setup: config.label,
    gpus: config.gpus,
    gpuCount: config.gpus?.length ?? 0,
    /** CPU stand-in runs (`--cpu-workers N`, the tests' substitute for N GPUs): how many worker processes. */
    cpuWorkers: cpuWorkersOf(config.extraArgs ?? []),
    // Only where asked: a configuration without one keeps the key it had before issue 56.
    ...(config.architecture && { architecture: config.architecture }),
    device: config.device ?? null,
    modelType: config.modelType ?? null,
    extraArgs: (config.extraArgs ?? []).join(' '),
    env: Object.entries(config.env ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .sort()
      .join(' '),
  }
}

/** Stable key of a configuration on an input (the label is left out: two names for one setup are one setup). */
export function configKey(config: Configuration, input: string, extra = ''): string {
  const { label: _label, ...rest } = config
  const canonical = JSON.stringify({ ...configRecord({ ...rest, label: '' }), input, extra })
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16)
}

/** File-name-safe form of a label (`1 GPU, fp16` -> `1-GPU-fp16`). */
export function slug(label: string): string {
  return (
    label
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'run'
  )
}

function cpuWorkersOf(args: readonly string[]): number | null {
  const at = args.indexOf('--cpu-workers')
  const value = at >= 0 ? Number(args[at + 1]) : Number.NaN
  return Number.isInteger(value) && value > 0 ? value : null
}

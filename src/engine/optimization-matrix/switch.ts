/**
 * One optimization a profile's matrix turns on and off (VirNucPro's sequence packing, fp16, CUDA streams; the reference
 * pipeline's packing, precision, token budget), with the path of the pipeline that reads it and the sign a run of it
 * leaves in the log. A switch no path reads at a GPU count is not measured there: its arms would measure the same
 * thing twice (issue 56: VIRNUCPRO_DISABLE_PACKING on the one-GPU v1.0 path).
 */
import type { TargetDevice } from '../settings.ts'
import type { SwitchEvidence } from './evidence.ts'

/** What turns one side of a switch on: options and environment. */
export interface SwitchSide {
  args: string[]
  env: Record<string, string>
}

/** The options that put a run on the path that reads the switch, or why no path reads it here. */
export type SwitchPath = { state: 'read'; args: string[] } | { state: 'none'; reason: string }

export interface OptimizationSwitch {
  /** The switch on, in an arm's label: `packing`, `fp16`, `cuda streams`. */
  name: string
  /** The switch off, in the baseline's label: `no packing`, `fp32`. */
  offName: string
  on: SwitchSide
  off: SwitchSide
  /** Where the pipeline reads the switch, for a run on `gpuCount` GPUs (or their CPU stand-in). */
  path(gpuCount: number, device: TargetDevice): SwitchPath
  /** Why a run with the switch `on` (or off) shows no sign of it in its log; null when it shows one. */
  missingSign(on: boolean, evidence: SwitchEvidence): string | null
}

export const side = (args: string[] = [], env: Record<string, string> = {}): SwitchSide => ({ args, env })
export const readOn = (args: string[] = []): SwitchPath => ({ state: 'read', args })
export const readNowhere = (reason: string): SwitchPath => ({ state: 'none', reason })

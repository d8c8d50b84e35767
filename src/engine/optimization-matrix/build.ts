/**
 * A profile's optimization matrix on some GPUs: a baseline with every switch that acts there off, each one alone on,
 * then all together, every arm on the one path that reads them all (its options added to each arm, so the arms differ
 * by their switches alone); a switch no path reads there is not measured, and says why.
 */
import type { Configuration } from '../configuration.ts'
import type { TargetDevice } from '../settings.ts'
import type { OptimizationSwitch } from './switch.ts'

/** One arm: its configuration, and the state it runs each acting switch in (what its log must show). */
export interface MatrixArm {
  config: Configuration
  states: { switch: OptimizationSwitch; on: boolean }[]
}

/** A switch left out of the matrix, by the label its arm would have had, and why. */
export interface ArmNotRun {
  label: string
  reason: string
}

export interface OptimizationMatrix {
  /** Baseline first, then each acting switch alone, then all together (when two or more act). */
  arms: MatrixArm[]
  notRun: ArmNotRun[]
}

/** Builds a configuration labelled `<GPUs>, <label>` with these options and environment. */
export type MakeConfiguration = (label: string, args: string[], env: Record<string, string>) => Configuration

const unique = (words: string[]) => [...new Set(words)]

/** The matrix of `switches` on `gpuCount` GPUs on `device`, its configurations made by `make`. */
export function optimizationMatrix(
  switches: readonly OptimizationSwitch[],
  gpuCount: number,
  device: TargetDevice,
  make: MakeConfiguration,
): OptimizationMatrix {
  const acting: OptimizationSwitch[] = []
  const pathArgs: string[] = []
  const notRun: ArmNotRun[] = []
  for (const s of switches) {
    const path = s.path(gpuCount, device)
    if (path.state === 'none') notRun.push({ label: make(s.name, [], {}).label, reason: path.reason })
    else {
      acting.push(s)
      pathArgs.push(...path.args)
    }
  }
  const onPath = unique(pathArgs)
  // The path's architecture in every label: VirNucPro's `--parallel` is v2.0 on any GPU count (UPSTREAM.md).
  const prefix = onPath.includes('--parallel') ? 'v2.0, ' : ''
  const arm = (label: string, on: ReadonlySet<OptimizationSwitch>): MatrixArm => {
    const sides = acting.map((s) => (on.has(s) ? s.on : s.off))
    const args = [...onPath, ...sides.flatMap((x) => x.args)]
    const env = Object.assign({}, ...sides.map((x) => x.env))
    return { config: make(`${prefix}${label}`, args, env), states: acting.map((s) => ({ switch: s, on: on.has(s) })) }
  }
  if (acting.length === 0) return { arms: [], notRun }
  const arms = [
    arm(`baseline (${acting.map((s) => s.offName).join(', ')})`, new Set()),
    ...acting.map((s) => arm(s.name, new Set([s]))),
  ]
  if (acting.length > 1) arms.push(arm(`all (${acting.map((s) => s.name).join(', ')})`, new Set(acting)))
  return { arms, notRun }
}

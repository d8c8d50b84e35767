/** The optimization matrix: which switches a profile has, where its pipeline reads them, and what a run shows of them. */
export {
  type ArmNotRun,
  type MakeConfiguration,
  type MatrixArm,
  type OptimizationMatrix,
  optimizationMatrix,
} from './build.ts'
export { type SwitchEvidence, switchEvidence } from './evidence.ts'
export { REFERENCE_SWITCHES } from './reference-switches.ts'
export { armRefusal } from './refusal.ts'
export type { OptimizationSwitch, SwitchPath, SwitchSide } from './switch.ts'
export { VIRNUCPRO_SWITCHES } from './virnucpro-switches.ts'

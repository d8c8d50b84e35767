/**
 * Whether an arm's runs show what its label says: every completed measured run must leave the sign of each switch in
 * the state the arm runs it in (switch.ts missingSign). An arm that does not is refused, with why: its wall time is no
 * measure of its switches (issue 56: the packing arms of the one-GPU v1.0 path measured the same run twice).
 */
import type { RunObservation } from '../observe-run.ts'
import type { MatrixArm } from './build.ts'
import { switchEvidence } from './evidence.ts'

/** Why the arm's runs do not show its switches, naming the run and the switch; null when every run shows them. */
export function armRefusal(arm: MatrixArm, runs: readonly RunObservation[]): string | null {
  for (const o of runs) {
    const evidence = switchEvidence(o)
    const run = `run '${o.measured.label}'`
    if (typeof evidence === 'string') return `${run}: ${evidence}`
    for (const { switch: s, on } of arm.states) {
      const missing = s.missingSign(on, evidence)
      if (missing) return `${run}, ${s.name} ${on ? 'on' : 'off'}: ${missing}`
    }
  }
  return null
}

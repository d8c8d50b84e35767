/**
 * One verdict for a CPU bench's run, judged only against measurements of this machine: under `npm run bench --
 * --against REV`, against REV's subject measured in the same pairs (against/verdict.ts); otherwise against this
 * machine's saved baseline (baseline/), which a machine without one passes, saving it. The smoke pass (smoke.ts) is
 * not judged.
 */
import { expect } from 'vitest'
import { describeCheckout, otherCheckout } from './against/checkout.ts'
import { formatRevisionVerdict, judgeAgainstRevision, type RevisionVerdict } from './against/verdict.ts'
import { judgeOnThisMachine, type MachineJudgement, type MeasuredRun } from './baseline/index.ts'
import { isSmokePass, SMOKE_MESSAGE } from './smoke.ts'

export interface RunJudgement {
  verdict: 'pass' | 'fail'
  /** One line: what the run was compared with, the figures, the verdict. */
  message: string
  /** The baseline's part, when judged against the baseline. */
  baseline: MachineJudgement | null
  /** The other revision's part, under `--against`. */
  revision: RevisionVerdict | null
}

/**
 * Judges a run of `bench` (its subject's name): `run.calibrationCosts` are the second arm's, the other revision's
 * subject under `--against`.
 * @throws as judgeOnThisMachine does (an unusable baseline file is named)
 */
export async function judgeRun(bench: string, run: MeasuredRun): Promise<RunJudgement> {
  if (isSmokePass()) return { verdict: 'pass', message: SMOKE_MESSAGE, baseline: null, revision: null }
  const other = otherCheckout()
  if (other) {
    const revision = judgeAgainstRevision(run.subjectCosts, run.calibrationCosts)
    const message = `${run.judgeOn} cost ${formatRevisionVerdict(revision, describeCheckout(other))}`
    return { verdict: revision.verdict, message, baseline: null, revision }
  }
  const baseline = await judgeOnThisMachine(bench, run)
  return { verdict: baseline.verdict?.verdict ?? 'pass', message: baseline.message, baseline, revision: null }
}

/** The assertion: not slower than what it was judged against, the message carrying the whole judgement. */
export function expectNoRegression(judgement: RunJudgement, label: string): void {
  expect(judgement.verdict, `${label}: ${judgement.message}`).toBe('pass')
}

/**
 * The gpu project's global setup opens the invocation's progress (benchmarks/support/run-context-setup.ts): its ledger
 * file, which the workers append to and the run-lines reporter reads, and what earlier invocations under the same key
 * took, for the forecast the invocation opens with. Handed to both through vitest's provided context, so it is plain
 * data.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { readSetting } from '../../config/variables.ts'
import type { RunKey } from '../../results/run-key.ts'
import { type EarlierProgress, readEarlierProgress } from './earlier-progress.ts'
import { ledgerPath } from './ledger.ts'

export interface ProgressContext {
  /** This invocation's ledger (ledger.ts). */
  ledger: string
  runId: string
  resultsRoot: string
  /** Whether the same command run again continues this run (not with VIRNUCPRO_BENCH_FRESH=1). */
  continuable: boolean
  earlier: EarlierProgress
}

/**
 * Makes the ledger (empty) and reads the earlier invocations' progress.
 * @throws the fs error when the ledger cannot be made (the caller goes on without progress lines).
 */
export async function openProgress(o: {
  root: string
  workDir: string
  task: string | null
  key: RunKey
  runId: string
  continued: boolean
  env: NodeJS.ProcessEnv
}): Promise<ProgressContext> {
  const ledger = ledgerPath(o.workDir, new Date())
  await mkdir(dirname(ledger), { recursive: true })
  await writeFile(ledger, '', { flag: 'a' })
  // A forecast is worth less than the run: an earlier ledger that cannot be read forecasts nothing.
  const earlier = await readEarlierProgress({ ...o, ledger }).catch((): EarlierProgress => ({ files: {}, kept: {} }))
  return {
    ledger,
    runId: o.runId,
    resultsRoot: o.root,
    continuable: !(readSetting(o.env, 'VIRNUCPRO_BENCH_FRESH') ?? false),
    earlier,
  }
}

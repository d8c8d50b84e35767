/**
 * The gpu project's global setup opens the invocation's progress (benchmarks/support/run-context-setup.ts): its ledger
 * file, which the workers append to and the run-lines reporter reads, and what earlier invocations under the same key
 * and plan took, for the forecast the invocation opens with. Handed to both through vitest's provided context, so it is plain
 * data.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { readSetting } from '../../config/variables.ts'
import type { RunKey } from '../../results/run-key.ts'
import { DEFAULT_JOB_LIMIT_S } from '../settings.ts'
import { type EarlierProgress, readEarlierProgress } from './earlier-progress.ts'
import { appendLedgerLine, ledgerPath } from './ledger.ts'
import { planKey } from './plan-key.ts'
import type { PriorForecast } from './prior-forecast.ts'

export interface ProgressContext {
  /** This invocation's ledger (ledger.ts). */
  ledger: string
  runId: string
  resultsRoot: string
  /** Whether the same command run again continues this run (not with VIRNUCPRO_BENCH_FRESH=1). */
  continuable: boolean
  earlier: EarlierProgress
  /** Every gpu-project file priced by its plan and the host's cost prior (prior-forecast.ts), or null where none was made. */
  prior: PriorForecast | null
  /** VIRNUCPRO_BENCH_JOB_LIMIT_S (0: none): how many such limits the forecast work takes, said at the start. */
  jobLimitS: number
}

/**
 * Makes the ledger, its first line the invocation's plan (plan-key.ts), and reads the earlier invocations' progress.
 * @param args the command line after the vitest binary (`process.argv.slice(2)`), part of the plan
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
  args: readonly string[]
  prior?: PriorForecast | null
}): Promise<ProgressContext> {
  const ledger = ledgerPath(o.workDir, new Date())
  await mkdir(dirname(ledger), { recursive: true })
  await writeFile(ledger, '', { flag: 'a' })
  const plan = planKey(o.env, o.args)
  appendLedgerLine(ledger, { type: 'invocation', at: Date.now(), plan })
  // A forecast is worth less than the run: an earlier ledger that cannot be read forecasts nothing.
  const earlier = await readEarlierProgress({ ...o, plan, ledger }).catch(
    (): EarlierProgress => ({ files: {}, kept: {} }),
  )
  return {
    ledger,
    runId: o.runId,
    resultsRoot: o.root,
    continuable: !(readSetting(o.env, 'VIRNUCPRO_BENCH_FRESH') ?? false),
    earlier,
    prior: o.prior ?? null,
    jobLimitS: readSetting(o.env, 'VIRNUCPRO_BENCH_JOB_LIMIT_S') ?? DEFAULT_JOB_LIMIT_S,
  }
}

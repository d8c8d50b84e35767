// Runs in every worker of the `gpu` project (a setup file): every run this file measures, and the file's start and end,
// go to the invocation's progress ledger as they happen (src/engine/invocation-progress/ledger.ts), from which the
// run-lines reporter in vitest's main process says after each run where the whole invocation stands. The main process
// reads a file rather than the workers' console: vitest joins a test's console writes of one tick into one message,
// so a line meant for the reporter could not be kept out of the console without hiding the line beside it.
import { relative } from 'node:path'
import { afterAll, beforeAll, expect, inject } from 'vitest'
import { appendLedgerLine, type LedgerLine, watchRuns } from '../../src/engine/invocation-progress/index.ts'
import { REPO_ROOT } from '../../src/pipeline/profiles.ts'
import { fsProblem } from '../../src/platform/fs-problem.ts'

const progress = inject('progress')

if (progress) {
  let file = ''
  let refused = false
  // A ledger the disk refuses costs the progress lines, never a run: said once.
  const append = (line: LedgerLine) => {
    try {
      appendLedgerLine(progress.ledger, line)
    } catch (error) {
      if (!refused) console.error(`virnucpro-bench: progress lines stop here: ${progress.ledger}: ${fsProblem(error)}`)
      refused = true
    }
  }
  const stop = watchRuns((event) => append({ ...event, at: Date.now(), file }))
  beforeAll(() => {
    file = relative(REPO_ROOT, expect.getState().testPath ?? '')
    append({ type: 'file-start', at: Date.now(), file })
  })
  afterAll(() => {
    append({ type: 'file-end', at: Date.now(), file })
    stop()
  })
}

import { appendFileSync } from 'node:fs'
import type { Reporter, TestModule } from 'vitest/node'
import { countTestCases, formatSummaryLine } from './summary-counts.ts'

/**
 * Prints the closing line `vitest: N passed, N failed, N skipped` (test cases, all projects of the run) so that any CI can
 * read the outcome from the last line. With VITEST_SUMMARY_FILE set, the same line is also appended there, which lets
 * `.ci/run` repeat it as its own last line after other output.
 */
export default class SummaryLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const counts = countTestCases(testModules)
    // An unhandled error fails the run even when every case passed: count it so the line never reads green.
    counts.failed += unhandledErrors.length
    const line = formatSummaryLine(counts)
    process.stdout.write(`${line}\n`)
    const file = process.env.VITEST_SUMMARY_FILE
    if (file) appendFileSync(file, `${line}\n`)
  }
}

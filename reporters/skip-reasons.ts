import type { Reporter, TestModule } from 'vitest/node'

export interface SkipReason {
  /** The note the test was skipped with (`context.skip(note)`), or null for a skip that gave none. */
  reason: string | null
  tests: number
  files: number
}

/** Skipped test cases grouped by their note, most tests first; skips without a note last. */
export function skipReasons(testModules: ReadonlyArray<TestModule>): SkipReason[] {
  const groups = new Map<string | null, { tests: number; files: Set<string> }>()
  for (const module of testModules)
    for (const testCase of module.children.allTests()) {
      const result = testCase.result()
      if (result.state !== 'skipped') continue
      const reason = result.note ?? null
      const group = groups.get(reason) ?? { tests: 0, files: new Set<string>() }
      group.tests++
      group.files.add(module.moduleId)
      groups.set(reason, group)
    }
  return [...groups]
    .map(([reason, g]) => ({ reason, tests: g.tests, files: g.files.size }))
    .sort((a, b) => Number(a.reason === null) - Number(b.reason === null) || b.tests - a.tests)
}

export function formatSkipReason({ reason, tests, files }: SkipReason): string {
  const counted = `skipped ${tests} test${tests === 1 ? '' : 's'} (${files} file${files === 1 ? '' : 's'})`
  return reason === null ? `${counted} without a reason (test.skip, describe.skipIf)` : `${counted}: ${reason}`
}

/**
 * After the run, one line per distinct reason tests were skipped with, and how many: `skipped 6 tests (4 files):
 * needs chromium (...): ...`. The default reporter shows a skip's note only in verbose mode, and a person on a machine
 * without an optional tool (or a CI log) must see what was not checked here and why. Chain it before
 * SummaryLineReporter, whose closing line stays the last.
 */
export default class SkipReasonsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    for (const group of skipReasons(testModules)) process.stdout.write(`${formatSkipReason(group)}\n`)
  }
}

import type { TestModule } from 'vitest/node'

export interface CaseCounts {
  passed: number
  failed: number
  skipped: number
}

/** Counts test cases by outcome; a module that failed to load counts as one failure (its cases never ran). */
export function countTestCases(testModules: ReadonlyArray<TestModule>): CaseCounts {
  const counts: CaseCounts = { passed: 0, failed: 0, skipped: 0 }
  for (const module of testModules) {
    let cases = 0
    for (const testCase of module.children.allTests()) {
      cases++
      const state = testCase.result().state
      if (state === 'passed') counts.passed++
      else if (state === 'failed') counts.failed++
      else counts.skipped++
    }
    if (cases === 0 && module.state() === 'failed') counts.failed++
  }
  return counts
}

export function formatSummaryLine(counts: CaseCounts): string {
  return `vitest: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`
}

import type { TestAnnotation } from 'vitest'
import type { Reporter, TestCase } from 'vitest/node'

/**
 * Prints every test annotation as one plain line, `[annotation] <project> > <test> | <message>`. GPU tests and benches
 * annotate the figures they measured; the default reporter shows annotations only in some modes, and a CI log (or the
 * GPU machine's output) must carry them.
 */
export default class AnnotationLineReporter implements Reporter {
  onTestCaseAnnotate(testCase: TestCase, annotation: TestAnnotation): void {
    const project = testCase.project.name
    process.stdout.write(`[annotation] ${project} > ${testCase.fullName} | ${annotation.message}\n`)
  }
}

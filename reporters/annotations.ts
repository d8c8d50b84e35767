import type { TestAnnotation } from 'vitest'
import type { Reporter, TestCase } from 'vitest/node'
import { escapeControls } from '../src/platform/one-line.ts'

/**
 * Prints every test annotation as one plain line, `[annotation] <project> > <test> | <message>`. GPU tests and benches
 * annotate the figures they measured; the default reporter shows annotations only in some modes, and a CI log (or the
 * GPU machine's output) must carry them. A message of several lines (one per verdict) prints as several such lines,
 * each with the prefix and its other control characters escaped: a message quotes stored text (record names), and a
 * line of it starting `::` would be a GitHub Actions workflow command.
 */
export default class AnnotationLineReporter implements Reporter {
  onTestCaseAnnotate(testCase: TestCase, annotation: TestAnnotation): void {
    const project = testCase.project.name
    const prefix = escapeControls(`[annotation] ${project} > ${testCase.fullName} | `)
    for (const line of annotation.message.split(/\r?\n/)) process.stdout.write(`${prefix}${escapeControls(line)}\n`)
  }
}

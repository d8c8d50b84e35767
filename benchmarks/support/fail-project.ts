import { type TestProject, TestsNotFoundError } from 'vitest/node'

/**
 * Fails the gpu project with `line` alone. Thrown out of a global setup, an error is printed by vitest with its stack
 * after the closing line, and its default reporter, which then sees neither a test file nor an error, says "No test
 * files found" and the filters, as if none matched. So the line is handed to vitest as the run's one error (printed
 * before the closing line, which counts it failed, and the exit code 1), and the set-up ends with vitest's own
 * no-test-files error, the one start error it prints nothing for.
 */
export function failProject(project: TestProject, line: string): never {
  const error = new Error(line)
  // Vitest prints `name: message`: the form of the suite's other lines. No frames: the line says all there is.
  error.name = 'virnucpro-bench'
  error.stack = `${error.name}: ${line}`
  project.vitest.state.catchError(error, 'gpu project set-up')
  throw new TestsNotFoundError()
}

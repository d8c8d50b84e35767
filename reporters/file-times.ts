import { writeFileSync } from 'node:fs'
import type { Reporter, TestModule } from 'vitest/node'

/** One test file's time in a run: its tests and hooks, set-up and collection (what it costs CI). */
export interface FileTime {
  project: string
  file: string
  durationMs: number
}

/** The files' times, slowest first. */
export function fileTimes(testModules: ReadonlyArray<TestModule>): FileTime[] {
  return testModules
    .map((m) => {
      const d = m.diagnostic()
      return {
        project: m.project.name,
        file: m.relativeModuleId,
        durationMs: d.duration + d.setupDuration + d.collectDuration + d.environmentSetupDuration,
      }
    })
    .sort((a, b) => b.durationMs - a.durationMs || a.file.localeCompare(b.file))
}

/** `  123.4 s  integration  test/x.test.ts`: one line a file. */
export function formatFileTime(t: FileTime): string {
  return `${(t.durationMs / 1000).toFixed(1).padStart(7)} s  ${t.project.padEnd(18)} ${t.file}`
}

/**
 * With VITEST_FILE_TIMES_FILE set, writes every test file's time there, slowest first, one line a file: what CI costs,
 * file by file (`.ci/run` prints the slowest ten at its end). Nothing on the console: the closing line stays last. The
 * file is written whole, not appended to: the nested vitest runs that tests start inherit the variable, and the run
 * that started them ends last, so its files are what the file holds.
 */
export default class FileTimesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const file = process.env.VITEST_FILE_TIMES_FILE
    if (!file) return
    writeFileSync(
      file,
      fileTimes(testModules)
        .map((t) => `${formatFileTime(t)}\n`)
        .join(''),
    )
  }
}

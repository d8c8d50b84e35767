// Temp directories made by shared helpers that hand back a path, not an owner: each is removed when the test file that
// made it ends. The file's end, not the test's, because some helpers run in beforeAll (or at module scope in a bench)
// for the tests that follow. The hook that runs them is registered per file by the setup file test/support/file-end.ts:
// a hook registered here, at import, would be registered once per process, and the `unit` project shares one process
// among many files (issue 45), so every file after the first would leave its directories behind.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const cleanups: Array<() => void> = []

/** Runs and forgets the cleanups registered so far, newest first (the file-end hook's body). */
export function runFileEndCleanups(): void {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
}

/** Runs `cleanup` when the current test file ends (after the file's own afterAll hooks, registered later). */
export function atFileEnd(cleanup: () => void): void {
  cleanups.push(cleanup)
}

/** A fresh directory in the OS temp dir, removed with its contents when the current test file ends. */
export function tempDirUntilFileEnd(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix))
  atFileEnd(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

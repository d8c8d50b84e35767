// A setup file of every CPU project (vitest.config.ts): Vitest runs it before each test file, also where one process
// serves many files, so the hook below is registered on every file's root suite. Registered before the file's own
// hooks, it runs after them (after-hooks run in reverse order): a file's afterAll may still read its temp directories.
import { afterAll } from 'vitest'
import { runFileEndCleanups } from './temp-dir.ts'

afterAll(runFileEndCleanups)

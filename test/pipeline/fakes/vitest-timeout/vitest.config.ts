import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

/** A nested vitest run for runner-vitest-timeout.test.ts: one test that outlives its timeout while a target hangs. */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.fixture.ts'],
    reporters: ['default'],
  },
})

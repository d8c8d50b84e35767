import { execa } from 'execa'
import { describe, expect, test } from 'vitest'
import { pythonExecutable, REFPIPE_ROOT, skipReason } from './support.ts'

describe.skipIf(skipReason !== null)('reference-pipeline Python unit tests', () => {
  test('python -m unittest passes', async () => {
    const result = await execa(pythonExecutable(), ['-m', 'unittest', 'discover', '-s', 'tests', '-t', '.'], {
      cwd: REFPIPE_ROOT,
      env: { PYTHONPATH: REFPIPE_ROOT },
      reject: false,
    })
    expect(result.exitCode, String(result.stderr)).toBe(0)
    expect(String(result.stderr)).toMatch(/^OK$/m)
  })
})

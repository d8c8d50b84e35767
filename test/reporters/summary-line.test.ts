import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { expect, test } from 'vitest'
import { formatSummaryLine } from '../../reporters/summary-counts.ts'

test('formats the closing line CI reads', () => {
  expect(formatSummaryLine({ passed: 3, failed: 0, skipped: 12 })).toBe('vitest: 3 passed, 0 failed, 12 skipped')
})

test('a real vitest run ends with the counts of its test cases, also written to VITEST_SUMMARY_FILE', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'summary-line-'))
  const summaryFile = join(dir, 'summary.txt')
  try {
    const result = await execa('npx', ['vitest', 'run', '--root', 'test/reporters/fixtures/summary'], {
      reject: false,
      env: { VITEST_SUMMARY_FILE: summaryFile, CI: 'true' },
    })
    expect(result.exitCode).toBe(1) // one test fails on purpose
    const lastLine = result.stdout.trimEnd().split('\n').at(-1)
    expect(lastLine).toBe('vitest: 2 passed, 1 failed, 2 skipped')
    expect(readFileSync(summaryFile, 'utf8')).toBe('vitest: 2 passed, 1 failed, 2 skipped\n')
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

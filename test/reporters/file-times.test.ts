import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { expect, test } from 'vitest'
import { formatFileTime } from '../../reporters/file-times.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

test('a file time reads seconds, project and file, aligned', () => {
  expect(formatFileTime({ project: 'integration', file: 'test/a.test.ts', durationMs: 123_456 })).toBe(
    '  123.5 s  integration        test/a.test.ts',
  )
})

test('a real vitest run writes every file with its time to VITEST_FILE_TIMES_FILE, slowest first, the file whole', async () => {
  const times = join(tempDirUntilFileEnd('file-times-'), 'times.txt')
  // What a nested vitest run (a test's own) wrote earlier is replaced: the run that ends last is the one listed.
  writeFileSync(times, '  999.0 s  nested             some-nested.test.ts\n')
  const result = await execa('npx', ['vitest', 'run', '--root', 'test/reporters/fixtures/file-times'], {
    reject: false,
    env: { VITEST_FILE_TIMES_FILE: times },
  })
  expect(result.exitCode, result.all).toBe(0)
  const lines = readFileSync(times, 'utf8').trimEnd().split('\n')
  expect(lines.map((l) => l.split(/\s+/).at(-1))).toEqual(['slow.case.ts', 'quick.case.ts'])
  const seconds = lines.map((l) => Number(l.trim().split(' ')[0]))
  expect(seconds[0]).toBeGreaterThanOrEqual(0.6)
  expect(seconds[1]).toBeLessThan(seconds[0]!)
})

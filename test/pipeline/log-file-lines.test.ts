import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { MAX_LINE_BYTES } from '../../src/pipeline/line-splitter.ts'
import { logFileLines } from '../../src/pipeline/log-file-lines.ts'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'log-lines-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('logFileLines', () => {
  test('reads a stored log as the runner read it: \\r ends a line, a cut line and an unterminated last one left out', async () => {
    const path = join(dir, 'target.log')
    const long = 'y'.repeat(3 * MAX_LINE_BYTES)
    await writeFile(path, `a\r\n\r 10%|#| 1/10\r 20%|##| 2/10\rb\n${long}\nc\rcut mid-li`)
    expect([...logFileLines(path)]).toEqual(['a', '', ' 10%|#| 1/10', ' 20%|##| 2/10', 'b', 'c'])
  })

  test('a file that cannot be read throws its error', () => {
    expect(() => [...logFileLines(join(dir, 'absent.log'))]).toThrow(/ENOENT/)
  })
})

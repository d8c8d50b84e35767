import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { makeDirs, makeDirsSync } from '../../src/platform/make-dirs.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const root = tempDirUntilFileEnd('make-dirs-')

describe('mkdir -p, one level at a time', () => {
  test('makes every missing level, and again is nothing', async () => {
    await makeDirs(join(root, 'a', 'b', 'c'))
    await makeDirs(join(root, 'a', 'b', 'c'))
    makeDirsSync(join(root, 'x', 'y'))
    makeDirsSync(join(root, 'x', 'y'))
    expect([existsSync(join(root, 'a', 'b', 'c')), existsSync(join(root, 'x', 'y'))]).toEqual([true, true])
  })

  test("a parent that refuses a child (/proc) ends it with the error, where Node's recursive mkdir never returns", async () => {
    await expect(makeDirs('/proc/virnucpro-bench-test/x')).rejects.toThrow(/ENOENT|EACCES|EPERM/)
    expect(() => makeDirsSync('/proc/virnucpro-bench-test/x')).toThrow(/ENOENT|EACCES|EPERM/)
  })
})

// The browser finder of the HTML tests: CHROMIUM, then the usual names on PATH; a machine without one is told so.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'
import { BROWSER_NAMES, findChromium } from './chromium.ts'

const root = tempDirUntilFileEnd('find-chromium-')
let made = 0

/** A PATH directory holding these files: executable ones (mode 755) and plain ones (644). */
function pathDir(files: { executable?: string[]; plain?: string[] }): string {
  const dir = join(root, `bin${made++}`)
  mkdirSync(dir)
  for (const name of files.executable ?? []) writeFileSync(join(dir, name), '#!/bin/sh\n', { mode: 0o755 })
  for (const name of files.plain ?? []) writeFileSync(join(dir, name), '#!/bin/sh\n', { mode: 0o644 })
  return dir
}

describe('findChromium', () => {
  test('each usual name on PATH is found, the first in BROWSER_NAMES order winning', () => {
    for (const name of BROWSER_NAMES) {
      const dir = pathDir({ executable: [name] })
      expect(findChromium({ PATH: dir })).toEqual({ state: 'found', path: join(dir, name) })
    }
    const both = pathDir({ executable: ['google-chrome', 'chromium'] })
    expect(findChromium({ PATH: both })).toEqual({ state: 'found', path: join(both, 'chromium') })
  })

  test('searches every PATH directory, passing over a file that is not executable and a directory', () => {
    const plain = pathDir({ plain: ['chromium'] })
    const directory = pathDir({})
    mkdirSync(join(directory, 'chromium'))
    const later = pathDir({ executable: ['chromium'] })
    expect(findChromium({ PATH: [plain, directory, later].join(':') })).toEqual({
      state: 'found',
      path: join(later, 'chromium'),
    })
  })

  test('CHROMIUM wins over PATH, and a CHROMIUM that is no executable file is reported, not replaced', () => {
    const onPath = pathDir({ executable: ['chromium'] })
    const chosen = join(pathDir({ executable: ['my-browser'] }), 'my-browser')
    expect(findChromium({ PATH: onPath, CHROMIUM: chosen })).toEqual({ state: 'found', path: chosen })
    const plain = join(pathDir({ plain: ['browser'] }), 'browser')
    chmodSync(plain, 0o644)
    for (const bad of [plain, join(root, 'nothing-here'), root])
      expect(findChromium({ PATH: onPath, CHROMIUM: bad })).toEqual({
        state: 'missing',
        problem: `CHROMIUM=${bad} is not an executable file`,
      })
  })

  test('nothing found: the problem names CHROMIUM and every name tried', () => {
    const empty = pathDir({ plain: ['chromium'] })
    for (const env of [{ PATH: empty }, { PATH: empty, CHROMIUM: '  ' }, {}])
      expect(findChromium(env)).toEqual({
        state: 'missing',
        problem:
          'CHROMIUM is unset and none of chromium, chromium-browser, google-chrome, google-chrome-stable, chrome is on PATH',
      })
  })
})

import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ownProcessTestFiles } from './own-process-tests.ts'
import { tempDirUntilFileEnd } from './temp-dir.ts'

/** A project root holding `files` (path under the root: source). */
function tree(files: Record<string, string>): string {
  const root = tempDirUntilFileEnd('own-process-')
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), source)
  }
  return root
}

describe('ownProcessTestFiles', () => {
  test('marks a file that activates a fake through a helper two imports deep, not a plain one', () => {
    const root = tree({
      'test/support/fake.ts': 'export const useFake = (f) => f.activate()\n',
      'test/monitor/support/core.ts': "import { useFake } from '../../support/fake.ts'\nexport { useFake }\n",
      'test/monitor/a.test.ts': "import { useFake } from './support/core.ts'\n",
      'test/measure/b.test.ts': "import { x } from '../../src/x.ts'\nimport fc from 'fast-check'\n",
    })
    expect(ownProcessTestFiles(['test/monitor/a.test.ts', 'test/measure/b.test.ts'], root)).toEqual([
      'test/monitor/a.test.ts',
    ])
  })

  test.each([
    ["vi.mock('../x.ts')"],
    ['vi.useFakeTimers()'],
    ["vi.stubEnv('A', '1')"],
    ["process.env.CUDA_VISIBLE_DEVICES = '0'"],
    ["process.env['A'] = '1'"],
    ['Object.assign(process.env, env)'],
    ["process.chdir('/')"],
    ["openNvml({ addonPath: 'x' })"],
  ])('marks a file that calls %s', (line) => {
    const root = tree({ 'test/a.test.ts': `${line}\n` })
    expect(ownProcessTestFiles(['test/a.test.ts'], root)).toEqual(['test/a.test.ts'])
  })

  test('reading or comparing the environment is not a marker', () => {
    const root = tree({ 'test/a.test.ts': "if (process.env.CI === 'true') {}\nconst env = { ...process.env }\n" })
    expect(ownProcessTestFiles(['test/a.test.ts'], root)).toEqual([])
  })

  test('a top-level hook marks the files that import its module, not the test file that holds it', () => {
    const root = tree({
      'test/support/session.ts': 'afterEach(() => {})\nexport const s = 1\n',
      'test/a.test.ts': "import { s } from './support/session.ts'\n",
      'test/b.test.ts': 'afterAll(() => {})\n',
    })
    expect(ownProcessTestFiles(['test/a.test.ts', 'test/b.test.ts'], root)).toEqual(['test/a.test.ts'])
  })

  test('modules outside test/ and missing modules are not followed', () => {
    const root = tree({
      'src/nvml.ts': 'export const open = () => openNvml({})\n',
      'test/a.test.ts': "import { open } from '../src/nvml.ts'\nimport { gone } from './gone.ts'\n",
    })
    expect(ownProcessTestFiles(['test/a.test.ts'], root)).toEqual([])
  })
})

import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { liveFilesEndingWith } from './live-tree.ts'
import { tempDirUntilFileEnd } from './temp-dir.ts'

test('files under a tree by the end of their path; a missing root has none', () => {
  const root = tempDirUntilFileEnd('live-tree-')
  for (const rel of ['a/1/run.json', 'a/2/run.json', 'b/run.json.tmp', 'run.json']) {
    mkdirSync(join(root, rel, '..'), { recursive: true })
    writeFileSync(join(root, rel), '{}')
  }
  expect(liveFilesEndingWith(root, '/run.json').sort()).toEqual(['a/1/run.json', 'a/2/run.json'])
  expect(liveFilesEndingWith(join(root, 'gone'), '/run.json')).toEqual([])
})

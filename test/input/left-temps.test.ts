// Temporary directories left by killed fixture writes (src/input/left-temps.ts): removed when their process is
// gone, named when it cannot be told (another host, an older version), left alone while their writer runs.
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, test } from 'vitest'
import { describeLeftTemp, ownerTag, sweepLeftTemps } from '../../src/input/left-temps.ts'
import { TEMP_PREFIX } from '../../src/input/output-dir.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const root = tempDirUntilFileEnd('left-temps-')
let made = 0
/** `<pid>.<start>@<host>-` of this process, split. */
const [, ownPid, ownStart, ownHost] = /^(\d+)(?:\.(\d+))?@(.+)-$/.exec(ownerTag())!

/** A pid that no longer runs: a child that has ended. */
async function endedPid(): Promise<number> {
  const child = execa(process.execPath, ['-e', ''])
  await child
  return child.pid!
}

async function tempDir(parent: string, name: string, bytes = 1000): Promise<string> {
  await mkdir(join(parent, name), { recursive: true })
  await writeFile(join(parent, name, 'part-001.fa'), Buffer.alloc(bytes, 65))
  return join(parent, name)
}

describe('sweepLeftTemps', () => {
  test("a dead writer's directory beside a new output and inside an existing one is removed and said", async () => {
    const parent = join(root, `p${made++}`)
    const out = join(parent, 'out')
    await mkdir(out, { recursive: true })
    const dead = await endedPid()
    const beside = await tempDir(parent, `.out.tmp-${dead}.1@${ownHost}-AbC123`, 2000)
    const inside = await tempDir(out, `${TEMP_PREFIX}${dead}@${ownHost}-xYz789`)
    const found = await sweepLeftTemps(out)
    expect(found).toEqual([
      {
        path: beside,
        bytes: 2000,
        removed: true,
        why: `left by pid ${dead}, which no longer runs (killed mid-write?)`,
      },
      {
        path: inside,
        bytes: 1000,
        removed: true,
        why: `left by pid ${dead}, which no longer runs (killed mid-write?)`,
      },
    ])
    expect(await readdir(parent)).toEqual(['out'])
    expect(await readdir(out)).toEqual([])
    expect(describeLeftTemp(found[0]!)).toBe(
      `removed ${beside} (2.00 kB), left by pid ${dead}, which no longer runs (killed mid-write?)`,
    )
  })

  test("a live writer's directory (this process) is neither removed nor reported; a reused pid is no writer", async () => {
    const parent = join(root, `p${made++}`)
    const live = await tempDir(parent, `.out.tmp-${ownerTag()}Live01`)
    // This pid, with another start time: a process that ran under the same pid before this one.
    const reused = await tempDir(parent, `.out.tmp-${ownPid}.${Number(ownStart ?? 0) + 1}@${ownHost}-Reuse1`)
    const found = await sweepLeftTemps(join(parent, 'out'))
    expect(found.map((f) => [f.path, f.removed])).toEqual(ownStart === undefined ? [] : [[reused, true]])
    expect(await readdir(parent)).toContain(live.split('/').at(-1))
  })

  test("another host's directory and one of an older version that recorded no owner are named and kept", async () => {
    const parent = join(root, `p${made++}`)
    const other = await tempDir(parent, '.out.tmp-4242.99@other-node-Other1')
    const older = await tempDir(parent, '.out.tmp-Old123')
    const found = await sweepLeftTemps(join(parent, 'out'))
    expect(found).toEqual([
      {
        path: other,
        bytes: 1000,
        removed: false,
        why: 'left by pid 4242 on host other-node, which may still be writing it',
      },
      {
        path: older,
        bytes: 1000,
        removed: false,
        why: 'left by an earlier virnucpro-bench, which did not record whose it was',
      },
    ])
    expect(describeLeftTemp(found[0]!)).toMatch(
      /^found \S+ \(1\.00 kB\), left by pid 4242 on host other-node, .*: remove it once no fixture write there runs$/,
    )
    expect((await readdir(parent)).sort()).toEqual(['.out.tmp-4242.99@other-node-Other1', '.out.tmp-Old123'])
  })

  test('a file named like one, or a place that cannot be read, holds nothing to sweep', async () => {
    const parent = join(root, `p${made++}`)
    await mkdir(parent)
    await writeFile(join(parent, `.out.tmp-${await endedPid()}@${ownHost}-File01`), 'a user file')
    expect(await sweepLeftTemps(join(parent, 'out'))).toEqual([])
    expect(await sweepLeftTemps(join(root, 'missing', 'out'))).toEqual([])
  })
})

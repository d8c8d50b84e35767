// Issue 40, case 6: a process left a zombie (ended, never reaped: a container whose init does not reap) counted as
// alive, so the temporary directory of a killed fixture generator stayed for ever and was never named. Through the
// real CLI: `fixtures generate` into a place where such a generator left its directory removes it, and says so.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, describe, expect, test } from 'vitest'
import { besidePrefix } from '../../src/input/output-dir.ts'
import { pidAlive } from '../../src/platform/pid-alive.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'
import { waitFor } from '../support/wait-for.ts'

const CLI = join(import.meta.dirname, '../../src/cli.ts')
const root = tempDirUntilFileEnd('pid-alive-')

// A parent that forks a child which exits at once and is never reaped: the child stays a zombie while the parent sleeps.
const parent = spawn(
  'python3',
  ['-c', 'import os, sys, time\npid = os.fork()\nif pid == 0: os._exit(0)\nprint(pid, flush=True)\ntime.sleep(120)'],
  { stdio: ['ignore', 'pipe', 'inherit'] },
)
afterAll(() => parent.kill('SIGKILL'))
const zombie: Promise<number> = new Promise((resolve) => parent.stdout!.once('data', (b) => resolve(Number(String(b)))))
const stateOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
}

describe('pidAlive', () => {
  test('a live process is alive; an ended one, and a zombie, are not', async () => {
    const pid = await zombie
    await waitFor(() => stateOf(pid)[0] === 'Z', 10_000)
    expect(pidAlive(pid)).toBe(false)
    expect(pidAlive(parent.pid!)).toBe(true)
    expect(pidAlive(process.pid)).toBe(true)
    const ended = execa(process.execPath, ['-e', ''])
    await ended
    expect(pidAlive(ended.pid!)).toBe(false)
    expect(pidAlive(0)).toBe(false)
    expect(pidAlive(-1)).toBe(false)
  })

  test('fixtures generate removes and names the temporary directory of a generator left a zombie', async () => {
    const pid = await zombie
    await waitFor(() => stateOf(pid)[0] === 'Z', 10_000)
    // As the generator named it (left-temps.ts ownerTag): its pid, its start in clock ticks, the host.
    const host = hostname().replace(/[^A-Za-z0-9._-]/g, '_') || 'unknown-host'
    const out = join(root, 'fixture')
    const left = join(root, `${besidePrefix(out)}${pid}.${stateOf(pid)[19]}@${host}-AbC123`)
    mkdirSync(left)
    writeFileSync(join(left, 'part-001.fa'), Buffer.alloc(4096, 65))
    const run = await execa(process.execPath, [CLI, 'fixtures', 'generate', '--preset', 'TINY', '--out', out], {
      reject: false,
      env: { NO_COLOR: '1' },
    })
    expect(run.exitCode, run.stderr).toBe(0)
    expect(run.stderr).toContain(
      `removed ${left} (4.10 kB), left by pid ${pid}, which no longer runs (killed mid-write?)`,
    )
    expect(existsSync(left)).toBe(false)
  })
})

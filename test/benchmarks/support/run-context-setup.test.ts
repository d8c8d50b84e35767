// Issue 40, case 6b: the gpu project's global set-up (benchmarks/support/run-context-setup.ts) could not take its run (a
// live writer on the pinned run, a read-only results directory, a full disk) and printed a stack trace under Vitest's
// "No test files found", and a full disk left the lock file behind. Run as a user runs it (`vitest run --project gpu`,
// a real process): one line naming what and where, exit 1, the closing line last, and nothing left behind.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { execa } from 'execa'
import { afterAll, describe, expect, test } from 'vitest'
import { WRITER_FILE } from '../../../src/results/writer-lock.ts'
import { CAMPAIGN_COMMAND, cpuCampaigns } from '../../engine/support/cpu-campaign.ts'
import { fillUntilFree, mountSmallTmpfs, remountReadOnly } from '../../support/small-tmpfs.ts'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'

const { pipeline, env } = await cpuCampaigns(1)
const RUN_ID = '2026-11-28T00-00-00Z-c6b0'
const PAGE_BYTES = 4096

/** The gpu project's stage suite as a process; its output without colours. */
async function runSuite(suiteEnv: Record<string, string>) {
  const run = await execa('node', CAMPAIGN_COMMAND, { reject: false, env: suiteEnv, timeout: 120_000 })
  const plain = (text: string) => stripVTControlCharacters(text)
  return { exitCode: run.exitCode, stdout: plain(run.stdout), all: plain(`${run.stdout}\n${run.stderr}`) }
}

/** Refused in one `virnucpro-bench:` line matching `line`: no stack, no "No test files found", the closing line last. */
function expectRefusedInOneLine(run: Awaited<ReturnType<typeof runSuite>>, line: RegExp): void {
  expect(run.exitCode, run.all).toBe(1)
  const said = run.all.split('\n').filter((l) => l.startsWith('virnucpro-bench: '))
  expect(said, run.all).toHaveLength(1)
  expect(said[0]).toMatch(line)
  // Node's frames (`    at f (file:1:2)`) and vitest's (`❯ f file:1:2`).
  expect(run.all).not.toMatch(/^\s+at |^\s*❯ /m)
  expect(run.all).not.toContain('No test files found')
  expect(run.stdout.trim().split('\n').at(-1)).toBe('vitest: 0 passed, 1 failed, 0 skipped')
}

/** `text` matched literally inside a RegExp. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Every path under `dir`, relative to it. */
const tree = (dir: string) => (readdirSync(dir, { recursive: true }) as string[]).sort()

describe.skipIf(pipeline.state !== 'ready')('the gpu project cannot take its run', () => {
  // A live process of this host that is not the suite: another invocation writing the same pinned run.
  const other = spawn('sleep', ['120'], { stdio: 'ignore' })
  afterAll(() => other.kill('SIGKILL'))

  test('a live writer of this host on the pinned run: one line naming its host, pid and start; its lock untouched', {
    timeout: 120_000,
  }, async () => {
    const work = tempDirUntilFileEnd('setup-busy-')
    const workDir = join(work, 'results', RUN_ID, 'work')
    mkdirSync(workDir, { recursive: true })
    const startedAt = '2026-11-28T09:00:00.000Z'
    const lock = JSON.stringify({ token: 'other', host: os.hostname(), pid: other.pid, startedAt })
    writeFileSync(join(workDir, WRITER_FILE), lock)
    const run = await runSuite({ ...env(work), VIRNUCPRO_BENCH_RUN_ID: RUN_ID })
    expectRefusedInOneLine(
      run,
      new RegExp(
        `^virnucpro-bench: ${literal(workDir)} is being written by host ${literal(os.hostname())}, pid ${other.pid}, since ${literal(startedAt)} .*: wait for it to end, or give this run another VIRNUCPRO_BENCH_RUN_ID$`,
      ),
    )
    expect(readFileSync(join(workDir, WRITER_FILE), 'utf8')).toBe(lock)
    expect(tree(workDir)).toEqual([WRITER_FILE])
  })

  test('a read-only results directory (a read-only mount): one line naming the place; nothing made', {
    timeout: 120_000,
  }, async (context) => {
    const disk = mountSmallTmpfs('setup-ro-', 64 * PAGE_BYTES)
    if (!disk.dir) return context.skip(disk.unavailable)
    remountReadOnly(disk.dir)
    const work = tempDirUntilFileEnd('setup-ro-work-')
    const run = await runSuite({ ...env(work), VIRNUCPRO_BENCH_RESULTS_DIR: disk.dir })
    expectRefusedInOneLine(
      run,
      new RegExp(
        `^virnucpro-bench: cannot make the work directory ${literal(disk.dir)}/[^/ ]+/work: read-only file system \\(EROFS\\); nothing was run: set VIRNUCPRO_BENCH_RESULTS_DIR to a place this user can write$`,
      ),
    )
    expect(tree(disk.dir)).toEqual([])
  })

  test('a full disk: the lock refused in one line; no lock file, no run directory left', {
    timeout: 120_000,
  }, async (context) => {
    const disk = mountSmallTmpfs('setup-full-', 64 * PAGE_BYTES)
    if (!disk.dir) return context.skip(disk.unavailable)
    fillUntilFree(disk.dir)
    const work = tempDirUntilFileEnd('setup-full-work-')
    const run = await runSuite({ ...env(work), VIRNUCPRO_BENCH_RESULTS_DIR: disk.dir, VIRNUCPRO_BENCH_RUN_ID: RUN_ID })
    const lockFile = join(disk.dir, RUN_ID, 'work', WRITER_FILE)
    expectRefusedInOneLine(
      run,
      new RegExp(
        `^virnucpro-bench: cannot take the writer lock ${literal(lockFile)}: no space left on the device \\(ENOSPC\\); nothing was run: free space there, or set VIRNUCPRO_BENCH_RESULTS_DIR to another disk$`,
      ),
    )
    expect(tree(disk.dir)).toEqual(['filler.bin'])
  })

  test('a disk full after the lock: the run state refused in one line; the lock released, no partial state left', {
    timeout: 120_000,
  }, async (context) => {
    const disk = mountSmallTmpfs('setup-full-state-', 64 * PAGE_BYTES)
    if (!disk.dir) return context.skip(disk.unavailable)
    // One page: the lock's, and none for the state.
    fillUntilFree(disk.dir, PAGE_BYTES)
    const work = tempDirUntilFileEnd('setup-full-state-work-')
    const run = await runSuite({ ...env(work), VIRNUCPRO_BENCH_RESULTS_DIR: disk.dir, VIRNUCPRO_BENCH_RUN_ID: RUN_ID })
    const stateFile = join(disk.dir, RUN_ID, 'work', 'state.json')
    expectRefusedInOneLine(
      run,
      new RegExp(
        `^virnucpro-bench: cannot write the run state ${literal(stateFile)}: no space left on the device \\(ENOSPC\\); nothing was run: free space there, or set VIRNUCPRO_BENCH_RESULTS_DIR to another disk$`,
      ),
    )
    expect(existsSync(join(disk.dir, RUN_ID)), tree(disk.dir).join(', ')).toBe(false)
    expect(tree(disk.dir)).toEqual(['filler.bin'])
  })
})

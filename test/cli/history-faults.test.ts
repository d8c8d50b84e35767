// Issue 32's fault sweep, the history database's cases, through the real CLI on real SQLite files: a full disk (a
// real small tmpfs), a read-only mount, a damaged page, and a read while another process adds runs. Each is named as
// what it is, with the file, and exits 3: never "not a history", never an internal error (exit 70).
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { execa } from 'execa'
import { describe, expect, test } from 'vitest'
import { damageMetricsPage, integrityCheck } from '../history/support/damage.ts'
import { SCALING_RUN_DIR } from '../history/support/fixtures.ts'
import { insertSyntheticHistory } from '../history/support/synthetic-history.ts'
import { fillUntilFree, mountSmallTmpfs, remountReadOnly, unfill } from '../support/small-tmpfs.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'
import { CLI } from './support/cli-sandbox.ts'

const root = tempDirUntilFileEnd('history-faults-')
const history = (args: string[]) =>
  execa(process.execPath, [CLI, 'history', ...args], {
    reject: false,
    timeout: 60_000,
    env: { VIRNUCPRO_BENCH_DEBUG: '' },
  })
/** The second process of the snapshot case: adds synthetic runs one transaction at a time until killed. */
const WRITER = join(import.meta.dirname, '../history/support/add-runs-loop.ts')
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')

/** A history of 40 synthetic runs made beside the tests, copied where each case needs it (86 kB). */
const SEED_HISTORY = join(root, 'seed.sqlite')
insertSyntheticHistory(SEED_HISTORY, { runs: 40, metrics: 5 })

/** One line on stderr, exit 3, the file named, and none of today's misreadings. */
function expectNamed(result: { exitCode?: number; stderr: string }, file: string, what: RegExp): void {
  expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1)
  expect(result.stderr).not.toMatch(/internal error|name a virnucpro-bench history instead/)
  expect(result.stderr).toContain(`history database ${file}`)
  expect(result.stderr).toMatch(what)
  expect(result.exitCode).toBe(3)
}

describe('a history on a full disk (a real 1 MiB tmpfs)', () => {
  const tmpfs = mountSmallTmpfs('history-full-', 1024 * 1024)
  const FULL =
    /: the disk is full: .* \(SQLITE_(FULL|IOERR_\w+)\) on '[^']+', [\d,]+ bytes free in \S+: free space there, or give --db a copy on another disk/

  test('no space at all: list and add say the disk is full and name the file; the history is left as it was', async (context) => {
    if (!tmpfs.dir) return context.skip(tmpfs.unavailable)
    const file = join(tmpfs.dir, 'full.sqlite')
    copyFileSync(SEED_HISTORY, file)
    const before = sha256(file)
    fillUntilFree(tmpfs.dir)
    try {
      expectNamed(await history(['list', '--db', file]), file, FULL)
      const added = await history(['add', SCALING_RUN_DIR, '--db', file])
      expectNamed(added, file, FULL)
      expect(added.stderr).toMatch(/nothing (of run \S+ )?was added$/)
      expect(sha256(file)).toBe(before)
    } finally {
      unfill(tmpfs.dir)
    }
    expect(integrityCheck(file)).toBe('ok')
    expect((await history(['list', '--db', file])).stdout).toContain(`40 run(s) in ${file}`)
  })

  test('a little space left: add names the full disk (never an internal error), adds nothing, and adds once space is freed', async (context) => {
    if (!tmpfs.dir) return context.skip(tmpfs.unavailable)
    const file = join(tmpfs.dir, 'nearly-full.sqlite')
    copyFileSync(SEED_HISTORY, file)
    // Room for SQLite's 32 KiB -shm file, not for the WAL frames a run's pages take: SQLITE_FULL mid-transaction.
    fillUntilFree(tmpfs.dir, 48 * 1024)
    try {
      const added = await history(['add', SCALING_RUN_DIR, '--db', file])
      expectNamed(added, file, FULL)
      expect(added.stderr).toMatch(/nothing (of run \S+ )?was added$/)
    } finally {
      unfill(tmpfs.dir)
    }
    expect(integrityCheck(file)).toBe('ok')
    expect((await history(['list', '--db', file])).stdout).toContain(`40 run(s) in ${file}`)
    const again = await history(['add', SCALING_RUN_DIR, '--db', file])
    expect(again.exitCode, again.stderr).toBe(0)
    expect((await history(['list', '--db', file])).stdout).toContain(`41 run(s) in ${file}`)
  })

  test('a new history on a full disk: the disk is named, and no empty file is left to be refused later', async (context) => {
    if (!tmpfs.dir) return context.skip(tmpfs.unavailable)
    const file = join(tmpfs.dir, 'new.sqlite')
    fillUntilFree(tmpfs.dir)
    try {
      expectNamed(await history(['add', SCALING_RUN_DIR, '--db', file]), file, FULL)
      expect(existsSync(file)).toBe(false)
    } finally {
      unfill(tmpfs.dir)
    }
  })
})

describe('a history on a read-only mount (EROFS, which stops root too)', () => {
  const tmpfs = mountSmallTmpfs('history-ro-', 1024 * 1024)

  test('add names the read-only place and adds nothing; list reads it', async (context) => {
    if (!tmpfs.dir) return context.skip(tmpfs.unavailable)
    const file = join(tmpfs.dir, 'ro.sqlite')
    copyFileSync(SEED_HISTORY, file)
    remountReadOnly(tmpfs.dir)
    const added = await history(['add', SCALING_RUN_DIR, '--db', file])
    expectNamed(added, file, /cannot be written: \S+ is read-only \(EROFS\): .*nothing was added$/)
    expect((await history(['list', '--db', file])).stdout).toContain(`40 run(s) in ${file}`)
  })
})

describe('a history another process holds the write lock of', () => {
  test('list reads it meanwhile; add waits its retries, then names the lock and adds nothing', async () => {
    const file = join(root, 'locked.sqlite')
    copyFileSync(SEED_HISTORY, file)
    const holder = new DatabaseSync(file)
    holder.exec('PRAGMA journal_mode = WAL')
    holder.exec('BEGIN IMMEDIATE')
    try {
      expect((await history(['list', '--db', file])).stdout).toContain(`40 run(s) in ${file}`)
      const added = await history(['add', SCALING_RUN_DIR, '--db', file])
      expectNamed(added, file, /is locked by another connection \(add run \S+: 4 tries, each waiting 2000 ms\)/)
      expect(added.stderr).toMatch(/nothing of run \S+ was added$/)
    } finally {
      holder.exec('ROLLBACK')
      holder.close()
    }
    expect((await history(['list', '--db', file])).stdout).toContain(`40 run(s) in ${file}`)
  })
})

describe('a history with a damaged page mid-file', () => {
  test('list, show and changes name the damaged file and how to check it; the file is left as it was', async () => {
    const file = join(root, 'damaged.sqlite')
    insertSyntheticHistory(file, { runs: 400, metrics: 5, runsPerPoint: 0 })
    damageMetricsPage(file)
    expect(integrityCheck(file)).not.toBe('ok')
    const before = sha256(file)
    const check = `check it with sqlite3 '${file}' 'PRAGMA integrity_check'`
    const DAMAGED = /is damaged: database disk image is malformed \(SQLITE_CORRUPT\) on '[^']+': check it with/
    for (const args of [['list'], ['show', 'synthetic/m0'], ['changes']]) {
      const result = await history([...args, '--db', file])
      expectNamed(result, file, DAMAGED)
      expect(result.stderr).toContain(check)
    }
    expect(sha256(file)).toBe(before)
  })
})

describe('a history read while another process adds runs to it', () => {
  test('every read is one snapshot: changes and show never meet a record their first query did not see', async () => {
    const file = join(root, 'busy.sqlite')
    // Large enough that reading the records takes longer than the writer takes to commit a run: the first read of
    // every run of this test failed on the code before the fix.
    insertSyntheticHistory(file, { runs: 4000, metrics: 5, runsPerPoint: 0 })
    const writer = execa(process.execPath, [WRITER, file, '4000', '5'], { reject: false })
    let writerEnded = false
    try {
      await new Promise((resolve, reject) => {
        writer.stdout?.once('data', resolve)
        writer.then((ended) => {
          writerEnded = true
          reject(new Error(`the writer ended before its first run: ${ended.stderr}`))
        })
      })
      for (const args of [['changes'], ['show', 'synthetic/m0', '--json'], ['changes']]) {
        const result = await history([...args, '--db', file])
        expect(result.stderr).not.toContain('internal error')
        expect([0, 1], result.stderr).toContain(result.exitCode)
      }
      expect(writerEnded, 'the writer was still adding runs after the last read').toBe(false)
    } finally {
      writer.kill()
      await writer
    }
    const listed = await history(['list', '--db', file, '--json'])
    expect(JSON.parse(listed.stdout).runs.length).toBeGreaterThan(4001)
  })
})

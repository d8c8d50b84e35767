// Issue #25 as properties: random bytes as record files, as a results directory and as a history database, and random
// option values, never end in anything but a typed refusal (one line, exit 2 or 3, the files as they were) or real
// work: never a stack trace, never exit 0 with nothing done. Most cases run in this process (the commands' run()); a
// few run the real CLI, where the exit code and the stack are the process's.
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import fc from 'fast-check'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { HelpRequested } from '../../src/cli/command-spec.ts'
import { UnusableDataError } from '../../src/cli/exit-codes.ts'
import { run as history } from '../../src/cli/history.ts'
import { parseMonitorArgs } from '../../src/cli/monitor.ts'
import { run as report } from '../../src/cli/report.ts'
import { parseSubmit } from '../../src/cli/slurm.ts'
import { UsageError } from '../../src/cli/usage-error.ts'
import { ClusterError } from '../../src/cluster/errors.ts'
import { checkLimits, SLURM_DEFAULT_MAX_ARRAY_SIZE } from '../../src/cluster/limits.ts'
import { DEMO_DIR } from '../report/support/demo.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const CLI = join(import.meta.dirname, '../../src/cli.ts')
const root = tempDirUntilFileEnd('refusal-props-')
let count = 0
const fresh = (name: string) => join(root, `${name}-${++count}`)
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {})
  vi.spyOn(console, 'error').mockImplementation(() => {})
})
afterEach(() => vi.restoreAllMocks())

/** What a command did: its exit code, or the refusal it threw (any other error fails the property). */
async function outcome(command: () => Promise<number>): Promise<{ code: number } | { refused: Error }> {
  try {
    return { code: await command() }
  } catch (error) {
    if (error instanceof UsageError || error instanceof UnusableDataError) return { refused: error }
    throw error
  }
}

/** Bytes a record file might hold: noise, JSON that is no record, a record cut short. */
const recordBytes = fc.oneof(
  fc.uint8Array({ maxLength: 200 }),
  fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
  fc.nat({ max: 4000 }).map((n) => readFileSync(join(DEMO_DIR, 'scaling-reference.json')).subarray(0, n)),
)
const fileName = fc.stringMatching(/^[A-Za-z0-9._-]{1,20}$/).map((n) => `${n}.json`)

describe('random bytes as record files', () => {
  test('report: refused (3) with nothing written unless a valid record is there, and then reports are written', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fileName, recordBytes), { maxLength: 4 }),
        fc.boolean(),
        async (files, withValid) => {
          const dir = fresh('run')
          mkdirSync(dir)
          for (const [name, bytes] of files) writeFileSync(join(dir, name), bytes)
          if (withValid) cpSync(join(DEMO_DIR, 'memory-reference.json'), join(dir, 'zz-valid-memory.json'))
          const out = fresh('out')
          const result = await outcome(() => report([dir, '--out', out]))
          if ('code' in result) {
            expect(result.code).toBe(0)
            expect(existsSync(join(out, 'summary.json'))).toBe(true)
          } else {
            expect(result.refused).toBeInstanceOf(UnusableDataError)
            expect(result.refused.message).toMatch(/holds no valid result record: .*: give /)
            expect(existsSync(out)).toBe(false)
          }
          // Exit 0 only with something real read: a cut copy of the demo record can still be a whole record.
          if ('code' in result) expect(withValid || files.length > 0).toBe(true)
        },
      ),
      { numRuns: 25 },
    )
  }, 120_000)

  test('history add: refused (3) with no database made unless a valid record is there', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fileName, recordBytes), { maxLength: 4 }), async (files) => {
        const dir = fresh('run')
        mkdirSync(dir)
        for (const [name, bytes] of files) writeFileSync(join(dir, name), bytes)
        const db = fresh('history.sqlite')
        const result = await outcome(() => history(['add', dir, '--db', db]))
        if ('refused' in result) {
          expect(result.refused.message).toMatch(/^history add: RUN_DIR .* holds no valid result record .*: give /)
          expect(existsSync(db)).toBe(false)
        } else expect(existsSync(db)).toBe(true)
      }),
      { numRuns: 40 },
    )
  })
})

describe('random bytes as a history database', () => {
  const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1')
  const databaseBytes = fc.oneof(
    fc.uint8Array({ maxLength: 5000 }),
    fc.uint8Array({ minLength: 84, maxLength: 5000 }).map((b) => Buffer.concat([SQLITE_MAGIC, b])),
  )

  beforeAll(() => {
    cpSync(DEMO_DIR, join(root, 'demo'), { recursive: true })
  })

  test('list, show, changes and add each refuse it (3), and leave it byte for byte as it was', async () => {
    await fc.assert(
      fc.asyncProperty(databaseBytes, fc.constantFrom('list', 'show', 'changes', 'add'), async (bytes, command) => {
        const db = fresh('noise.sqlite')
        writeFileSync(db, bytes)
        const before = sha(db)
        const args = { list: [], show: ['wall/1 GPU'], changes: [], add: [join(root, 'demo')] }[command]
        const result = await outcome(() => history([command, ...args, '--db', db]))
        expect('refused' in result && result.refused).toBeInstanceOf(UnusableDataError)
        expect(sha(db)).toBe(before)
        expect(existsSync(`${db}-wal`)).toBe(false)
      }),
      { numRuns: 60 },
    )
  })
})

describe('random option values', () => {
  const value = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.integer({ min: -5, max: 200_000 }).map(String),
    fc.double().map(String),
    fc.constantFrom('', ' ', '1e3', '0x10', '1,2', '-0', 'NaN', 'Infinity', '1\n2', '99999999999999999999'),
  )

  test('slurm submit: a usage refusal naming the option, or a campaign within what a cluster takes', () => {
    const options = fc.constantFrom('nodes', 'gpus-per-node', 'cpus-per-task', 'time-limit-min')
    const limits = { maxArraySize: { value: SLURM_DEFAULT_MAX_ARRAY_SIZE, from: 'default' }, gpusPerPartition: null }
    fc.assert(
      fc.property(options, value, (option, v) => {
        try {
          const { campaign } = parseSubmit(['--dry-run', `--${option}=${v}`], { PATH: process.env.PATH })
          checkLimits(campaign, limits)
          expect(v.trim()).toMatch(/^\d+$/)
        } catch (error) {
          if (error instanceof ClusterError) expect(error.code).toBe('CLUSTER_BAD_CAMPAIGN')
          else expect(error).toBeInstanceOf(UsageError)
          expect((error as Error).message).toContain(`--${option}`)
        }
      }),
    )
  })

  test('monitor: --interval-ms and --gpus take what they say, or are refused naming themselves', () => {
    fc.assert(
      fc.property(fc.constantFrom('interval-ms', 'gpus'), value, (option, v) => {
        try {
          const parsed = parseMonitorArgs([`--${option}=${v}`])
          if (option === 'interval-ms') expect(parsed.intervalMs).toBeGreaterThanOrEqual(1)
          else expect(parsed.gpus?.every((g) => Number.isInteger(g) && g >= 0)).toBe(true)
        } catch (error) {
          if (error instanceof HelpRequested) return
          expect(error).toBeInstanceOf(UsageError)
          expect((error as Error).message).toContain(`--${option}`)
        }
      }),
    )
  })
})

describe('the real CLI on random bytes (a few processes)', () => {
  test('report and history list: exit 3, one stderr line, no stack trace', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 300 }), async (bytes) => {
        const dir = fresh('cli-run')
        mkdirSync(dir)
        writeFileSync(join(dir, 'record.json'), bytes)
        const db = fresh('cli.sqlite')
        writeFileSync(db, bytes)
        for (const args of [
          ['report', dir, '--out', fresh('cli-out')],
          ['history', 'list', '--db', db],
        ]) {
          const ran = await execa('node', [CLI, ...args], { reject: false })
          expect(ran.exitCode, ran.stderr).toBe(3)
          expect(ran.stderr.split('\n')).toHaveLength(1)
          expect(ran.stderr).not.toMatch(/^\s+at /m)
        }
      }),
      { numRuns: 3 },
    )
  }, 60_000)
})

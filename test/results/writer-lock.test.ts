import { spawn } from 'node:child_process'
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import {
  acquireWriter,
  beatWriter,
  releaseWriter,
  STALE_MS,
  WRITER_FILE,
  WriterBusyError,
  writerAlive,
} from '../../src/results/writer-lock.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

// A live process of this host that is not us: what a second invocation on the same run finds holding the lock.
const other = spawn('sleep', ['60'], { stdio: 'ignore' })
afterAll(() => other.kill('SIGKILL'))

const lockOf = (dir: string, holder: object) => writeFileSync(join(dir, WRITER_FILE), JSON.stringify(holder))

describe('the writer lock of a work directory', () => {
  test('taken once; the same invocation (token) shares it; released only by its holder', async () => {
    const dir = tempDirUntilFileEnd('lock-')
    expect(await acquireWriter(dir, { token: 'a' })).toEqual({ state: 'acquired' })
    expect(await acquireWriter(dir, { token: 'a', pid: 1 })).toEqual({ state: 'already-ours' })
    expect(await writerAlive(dir)).toBe(true)
    releaseWriter(dir, 'b')
    expect(existsSync(join(dir, WRITER_FILE))).toBe(true)
    releaseWriter(dir, 'a')
    expect(existsSync(join(dir, WRITER_FILE))).toBe(false)
  })

  test('a live writer on this host is refused at once, naming its host, pid and start', async () => {
    const dir = tempDirUntilFileEnd('lock-')
    const startedAt = '2026-11-26T10:02:03.000Z'
    lockOf(dir, { token: 'first', host: os.hostname(), pid: other.pid, startedAt })
    const started = Date.now()
    const error = await acquireWriter(dir, { token: 'second' }).catch((e: Error) => e)
    expect(error).toBeInstanceOf(WriterBusyError)
    expect((error as Error).message).toContain(
      `is being written by host ${os.hostname()}, pid ${other.pid}, since ${startedAt}`,
    )
    expect((error as Error).message).toContain('VIRNUCPRO_BENCH_RUN_ID')
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(JSON.parse(readFileSync(join(dir, WRITER_FILE), 'utf8')).token).toBe('first')
  })

  test("a killed writer's lock (its pid gone) is taken over, and says whose it was", async () => {
    const dir = tempDirUntilFileEnd('lock-')
    const dead = spawn('true')
    await new Promise((resolve) => dead.on('exit', resolve))
    lockOf(dir, { token: 'killed', host: os.hostname(), pid: dead.pid, startedAt: '2026-11-26T10:00:00.000Z' })
    expect(await writerAlive(dir)).toBe(false)
    const got = await acquireWriter(dir, { token: 'next' })
    expect(got.state).toBe('took-over')
    expect(got.state === 'took-over' && got.from).toMatch(new RegExp(`pid ${dead.pid} is gone`))
    expect(JSON.parse(readFileSync(join(dir, WRITER_FILE), 'utf8')).token).toBe('next')
  })

  test("another host's writer: waited for while it beats, taken over once it goes quiet", async () => {
    const dir = tempDirUntilFileEnd('lock-')
    lockOf(dir, { token: 'remote', host: 'node-17', pid: 4242, startedAt: '2026-11-26T10:00:00.000Z' })
    // Beating: refused after the wait, naming it.
    const error = await acquireWriter(dir, { token: 'here' }, 300).catch((e: Error) => e)
    expect((error as Error).message).toContain('host node-17, pid 4242')
    // Quiet for longer than STALE_MS (a requeued job's killed predecessor): taken over.
    const old = new Date(Date.now() - STALE_MS - 5_000)
    utimesSync(join(dir, WRITER_FILE), old, old)
    const got = await acquireWriter(dir, { token: 'here' }, 300)
    expect(got.state === 'took-over' && got.from).toMatch(/host node-17, pid 4242.*no heartbeat for \d+ s/)
  })

  test('the heartbeat touches only its own lock', async () => {
    const dir = tempDirUntilFileEnd('lock-')
    await acquireWriter(dir, { token: 'a' })
    expect(beatWriter(dir, 'a')).toBe(true)
    expect(beatWriter(dir, 'b')).toBe(false)
  })
})

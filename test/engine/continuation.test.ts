// Which run an invocation writes into, on results roots as earlier invocations leave them.
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { chooseRun } from '../../src/engine/continuation.ts'
import { RUN_FILE } from '../../src/results/run-journal.ts'
import type { RunKey } from '../../src/results/run-key.ts'
import { type RunState, writeRunState } from '../../src/results/run-state.ts'
import { WRITER_FILE } from '../../src/results/writer-lock.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const KEY: RunKey = { suite: 'c0de', driver: '580.1', gpus: ['H100 GPU-1'] }
const OLD = '2026-11-26T10-00-00Z-ab12'
const NEW = '2026-11-26T11-00-00Z-cd34'
const newRunId = () => NEW

/** A results root whose newest run ended as `state`, with `kept` finished runs. */
async function rootWith(state: RunState['state'] | null, kept = 2, key = KEY, runId = OLD): Promise<string> {
  const root = tempDirUntilFileEnd('continue-')
  const work = join(root, runId, 'work')
  for (let n = 1; n <= kept; n++) {
    mkdirSync(join(work, 'slot', `1-GPU-run-${n}`), { recursive: true })
    writeFileSync(join(work, 'slot', `1-GPU-run-${n}`, RUN_FILE), '{}')
  }
  mkdirSync(work, { recursive: true })
  const at = '2026-11-26T10:05:00.000Z'
  if (state) await writeRunState(work, { format: 1, state, key, startedAt: at, updatedAt: at, command: ['vitest'] })
  return root
}

const choose = (root: string, env: NodeJS.ProcessEnv = {}, key = KEY) => chooseRun({ root, env, key, newRunId })

describe('chooseRun', () => {
  test('an empty results root: a new run, nothing said', async () => {
    expect(await choose(tempDirUntilFileEnd('continue-'))).toEqual({ runId: NEW, continued: false, lines: [] })
  })

  test.for(['interrupted', 'running'] as const)(
    'the newest run %s (its writer gone) under the same key is continued',
    async (state) => {
      const choice = await choose(await rootWith(state))
      expect(choice.runId).toBe(OLD)
      expect(choice.continued).toBe(true)
      expect(choice.lines[0]).toMatch(
        new RegExp(`^continuing ${OLD} \\(${state} 2026-11-26T10:05:00.000Z\\): 2 measured runs kept`),
      )
    },
  )

  test('a finished run is not continued', async () => {
    expect(await choose(await rootWith('finished'))).toEqual({ runId: NEW, continued: false, lines: [] })
  })

  test('a run whose writer is alive (another invocation now) is not continued', async () => {
    const root = await rootWith('running')
    writeFileSync(
      join(root, OLD, 'work', WRITER_FILE),
      JSON.stringify({ token: 't', host: os.hostname(), pid: process.pid, startedAt: '2026-11-26T10:00:00Z' }),
    )
    expect((await choose(root)).runId).toBe(NEW)
  })

  test('a differing key starts a new run and names what differs', async () => {
    const choice = await choose(await rootWith('interrupted'), {}, { ...KEY, driver: '580.2' })
    expect(choice).toEqual({
      runId: NEW,
      continued: false,
      lines: [`not continuing ${OLD} (2 measured runs kept): driver (was 580.1, now 580.2); starting ${NEW}`],
    })
  })

  test('VIRNUCPRO_BENCH_FRESH=1 starts afresh on purpose, and says the old run stays', async () => {
    const choice = await choose(await rootWith('interrupted'), { VIRNUCPRO_BENCH_FRESH: '1' })
    expect(choice.runId).toBe(NEW)
    expect(choice.lines).toEqual([
      `starting ${NEW} afresh (VIRNUCPRO_BENCH_FRESH=1); ${OLD} and its 2 measured runs kept stay as they were`,
    ])
    await expect(choose(await rootWith('interrupted'), { VIRNUCPRO_BENCH_FRESH: 'yes' })).rejects.toThrow(
      'VIRNUCPRO_BENCH_FRESH',
    )
  })

  test('a pinned run id is the run, continued when its key matches, said otherwise', async () => {
    const root = await rootWith('interrupted')
    const same = await choose(root, { VIRNUCPRO_BENCH_RUN_ID: OLD })
    expect(same.runId).toBe(OLD)
    expect(same.lines[0]).toMatch(/^continuing .* \(VIRNUCPRO_BENCH_RUN_ID; interrupted .*\): 2 measured runs kept$/)
    const other = await choose(root, { VIRNUCPRO_BENCH_RUN_ID: OLD }, { ...KEY, gpus: ['H100 GPU-2'] })
    expect(other.runId).toBe(OLD)
    expect(other.continued).toBe(false)
    expect(other.lines[0]).toContain('were measured under another key, so none is reused: gpus')
  })

  test("a campaign task continues its own work directory's run", async () => {
    const root = tempDirUntilFileEnd('continue-')
    const work = join(root, OLD, 'work', 'node1-t0')
    mkdirSync(join(work, 'slot', 'run-1'), { recursive: true })
    writeFileSync(join(work, 'slot', 'run-1', RUN_FILE), '{}')
    const at = '2026-11-26T10:05:00.000Z'
    await writeRunState(work, { format: 1, state: 'running', key: KEY, startedAt: at, updatedAt: at, command: [] })
    const pinned = await choose(root, { VIRNUCPRO_BENCH_RUN_ID: OLD, VIRNUCPRO_BENCH_TASK: 'node1-t0' })
    expect(pinned.continued).toBe(true)
    expect(pinned.lines[0]).toContain('1 measured run kept')
  })
})

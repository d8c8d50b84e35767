// Which run an invocation writes into, on results roots as earlier invocations leave them.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { chooseRun } from '../../src/engine/continuation.ts'
import { SettingError } from '../../src/platform/setting-error.ts'
import { RUN_FILE } from '../../src/results/run-journal.ts'
import type { RunKey } from '../../src/results/run-key.ts'
import { type RunState, STATE_FILE, writeRunState } from '../../src/results/run-state.ts'
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

/** This host's clock in the tests of dates: an hour after NEW. */
const NOW = new Date('2026-11-26T12:00:00Z')
/** Dated 3 h past NOW: started on a node whose clock is ahead. */
const AHEAD = '2026-11-26T15-00-00Z-ef56'
const chooseAt = (root: string, env: NodeJS.ProcessEnv = {}) => chooseRun({ root, env, key: KEY, newRunId, now: NOW })

/** Adds a run `runId` that ended as `state` to `root`, with `kept` finished runs. */
async function addRun(root: string, runId: string, state: RunState['state'], kept = 1): Promise<void> {
  const work = join(root, runId, 'work')
  for (let n = 1; n <= kept; n++) {
    mkdirSync(join(work, 'slot', `run-${n}`), { recursive: true })
    writeFileSync(join(work, 'slot', `run-${n}`, RUN_FILE), '{}')
  }
  const at = '2026-11-26T10:05:00.000Z'
  await writeRunState(work, { format: 1, state, key: KEY, startedAt: at, updatedAt: at, command: [] })
}

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

  test('VIRNUCPRO_BENCH_FRESH=1 beside a pinned VIRNUCPRO_BENCH_RUN_ID is refused in one line naming both', async () => {
    const root = await rootWith('interrupted')
    const refusal = choose(root, { VIRNUCPRO_BENCH_RUN_ID: OLD, VIRNUCPRO_BENCH_FRESH: '1' })
    await expect(refusal).rejects.toThrow(SettingError)
    await expect(refusal).rejects.toThrow(
      `VIRNUCPRO_BENCH_FRESH=1 with VIRNUCPRO_BENCH_RUN_ID='${OLD}': a pinned run is written into as it is, never started afresh; unset VIRNUCPRO_BENCH_FRESH to continue ${OLD}, or pin a new VIRNUCPRO_BENCH_RUN_ID (or remove the run directory ${OLD}) to start afresh`,
    )
    // FRESH=0 says nothing against the pin.
    expect((await choose(root, { VIRNUCPRO_BENCH_RUN_ID: OLD, VIRNUCPRO_BENCH_FRESH: '0' })).continued).toBe(true)
  })
})

describe('chooseRun: a run dated in the future (a node whose clock is ahead)', () => {
  test('a finished one does not hide the interrupted run before it: it is named and set aside', async () => {
    const root = await rootWith('interrupted')
    await addRun(root, AHEAD, 'finished')
    const choice = await chooseAt(root)
    expect(choice.runId).toBe(OLD)
    expect(choice.continued).toBe(true)
    expect(choice.lines[0]).toBe(
      `run ${AHEAD} is dated 3 h 0 min past this host's clock (a clock ahead of this one?), so its date orders nothing: set aside, it finished`,
    )
    expect(choice.lines[1]).toMatch(new RegExp(`^continuing ${OLD} \\(interrupted `))
  })

  test('an interrupted one beside an interrupted run dated before now: that one is continued, the other named', async () => {
    const root = await rootWith('interrupted')
    await addRun(root, AHEAD, 'interrupted', 3)
    const choice = await chooseAt(root)
    expect(choice.runId).toBe(OLD)
    expect(choice.lines[0]).toBe(
      `run ${AHEAD} is dated 3 h 0 min past this host's clock (a clock ahead of this one?), so its date orders nothing: set aside with its 3 measured runs kept (VIRNUCPRO_BENCH_RUN_ID=${AHEAD} continues it)`,
    )
  })

  test('an interrupted one is continued when no run dated before now is, and the line says so', async () => {
    const root = await rootWith('finished')
    await addRun(root, AHEAD, 'interrupted', 3)
    const choice = await chooseAt(root)
    expect(choice.runId).toBe(AHEAD)
    expect(choice.continued).toBe(true)
    expect(choice.lines).toEqual([
      `run ${AHEAD} is dated 3 h 0 min past this host's clock (a clock ahead of this one?), so its date orders nothing: continued, as no run dated before now is interrupted`,
      expect.stringMatching(new RegExp(`^continuing ${AHEAD} \\(interrupted .*\\): 3 measured runs kept`)),
    ])
  })

  test("a few minutes ahead is within the clocks' tolerance: ordered by its date, nothing said", async () => {
    const root = await rootWith('interrupted')
    await addRun(root, '2026-11-26T12-02-00Z-ef56', 'finished')
    expect(await chooseAt(root)).toEqual({ runId: NEW, continued: false, lines: [] })
  })
})

describe('chooseRun: a damaged state file', () => {
  test.for([
    ['cut off', '{"format":1,"state":"interr', /not valid JSON: .*\(cut short while written\?\)/],
    ['empty', '', /empty \(cut off or damaged\)/],
    ['of another form', '{"format":2}', /not a run state this version reads \(format: .+\)/],
  ] as const)(
    '%s: named in one line; a new run starts and the damaged one stays as it was',
    async ([, text, problem]) => {
      const root = await rootWith('interrupted')
      const file = join(root, OLD, 'work', STATE_FILE)
      writeFileSync(file, text)
      const choice = await choose(root)
      expect(choice.runId).toBe(NEW)
      expect(choice.continued).toBe(false)
      expect(choice.lines).toHaveLength(1)
      expect(choice.lines[0]).toMatch(new RegExp(`^${file}: `))
      expect(choice.lines[0]).toMatch(problem)
      expect(choice.lines[0]).toContain(
        `; not continuing ${OLD}: its 2 measured runs kept stay as they were; starting ${NEW}`,
      )
      expect(readFileSync(file, 'utf8')).toBe(text)
    },
  )

  test('of a pinned run: named in one line, saying its kept runs are not reused', async () => {
    const root = await rootWith('interrupted')
    const file = join(root, OLD, 'work', STATE_FILE)
    writeFileSync(file, '{"format":1,')
    const choice = await choose(root, { VIRNUCPRO_BENCH_RUN_ID: OLD })
    expect(choice.runId).toBe(OLD)
    expect(choice.continued).toBe(false)
    expect(choice.lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${file}: not valid JSON.*; ${OLD} \\(VIRNUCPRO_BENCH_RUN_ID\\): none of its 2 measured runs kept is reused \\(the key they were measured under is unknown\\), and its state file is written anew$`,
        ),
      ),
    ])
  })
})

describe('chooseRun: VIRNUCPRO_BENCH_TASK leaving its folder', () => {
  test.for(['..', '.', 'a/b', '../work'])(
    '%s is refused with a SettingError, before any directory is read',
    async (task) => {
      const root = await rootWith('interrupted')
      const refusal = choose(root, { VIRNUCPRO_BENCH_RUN_ID: OLD, VIRNUCPRO_BENCH_TASK: task })
      await expect(refusal).rejects.toThrow(SettingError)
      await expect(refusal).rejects.toThrow(/^VIRNUCPRO_BENCH_TASK='.*': not a directory name/)
    },
  )
})

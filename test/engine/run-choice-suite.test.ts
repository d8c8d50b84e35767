// Issue 40, case 4 through the real suite: continuation skipped silently. A run directory dated in the future (a node
// whose clock is ahead) hid the interrupted run on every later call, and a cut-off `state.json` started a new run
// without a word. The same command run again now continues the interrupted run and names the future-dated one; a
// damaged state is named, a new run started, and the damaged run left byte for byte as it was.
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { beforeAll, describe, expect, test } from 'vitest'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'
import { cpuCampaigns, processesLeft, startCampaign, startedUntilKept } from './support/cpu-campaign.ts'

const { pipeline, env } = await cpuCampaigns(2)
const runIds = (work: string) =>
  readdirSync(join(work, 'results'))
    .filter((n) => /^\d{4}-/.test(n))
    .sort()

/** A campaign killed (SIGKILL: no stop handler runs) once it has kept its warm-up: the run it leaves interrupted. */
async function killedAfterWarmup(work: string): Promise<string> {
  const { child, ended } = await startedUntilKept(env(work), work, 1)
  expect(ended(), 'the campaign ended before it kept a run').toBe(false)
  process.kill(-child.pid!, 'SIGKILL')
  await child
  // The per-run watchdog ends the orphaned target (its group, at once, when the runner's pipe closes); its lock's pid
  // is dead, so the run reads as interrupted at once. Waited for until the target and its workers are gone, not a
  // fixed 3 s: nothing of the campaign writes into the run once this returns.
  expect(await processesLeft(work), 'processes the killed campaign left').toEqual([])
  const [runId] = runIds(work)
  return runId!
}

describe.skipIf(pipeline.state !== 'ready')('which run the same command continues', () => {
  // One campaign killed after its warm-up serves both tests: the first continues it where the kill left it, the second
  // damages a copy of its results made before the first adds to them. A second kill would leave the same, a kept
  // warm-up and a run in flight, for a campaign's start and a warm-up more (about 15 s of this file's 80 s).
  let killed: { work: string; runId: string }
  let copied: { work: string; runId: string }
  beforeAll(async () => {
    const work = tempDirUntilFileEnd('run-choice-future-')
    killed = { work, runId: await killedAfterWarmup(work) }
    const copy = tempDirUntilFileEnd('run-choice-damaged-')
    cpSync(join(work, 'results'), join(copy, 'results'), { recursive: true })
    copied = { work: copy, runId: killed.runId }
  }, 120_000)

  test('a finished run dated in the future does not hide the interrupted run: continued, the other named', {
    timeout: 240_000,
  }, async () => {
    const { work, runId: interrupted } = killed
    // A finished run a node with its clock 73 years ahead left in the same results root.
    const future = '2099-01-01T00-00-00Z-f00d'
    mkdirSync(join(work, 'results', future, 'work'), { recursive: true })
    const state = JSON.parse(readFileSync(join(work, 'results', interrupted, 'work', 'state.json'), 'utf8'))
    writeFileSync(join(work, 'results', future, 'work', 'state.json'), JSON.stringify({ ...state, state: 'finished' }))

    const again = await startCampaign(env(work))
    const out = stripVTControlCharacters(again.all ?? '')
    expect(again.exitCode, out).toBe(0)
    expect(out).toMatch(
      new RegExp(`run ${future} is dated [\\d ,hdmin]+ past this host's clock .*: set aside, it finished`),
    )
    expect(out).toContain(`virnucpro-bench: continuing ${interrupted} (running `)
    expect(runIds(work)).toEqual([interrupted, future])
    expect(readdirSync(join(work, 'results', interrupted))).toContain('stage-1-GPU-v2.0-cpu.json')
  })

  test('a cut-off state.json is named; a new run starts and the damaged run stays as it was', {
    timeout: 240_000,
  }, async () => {
    const { work, runId: damaged } = copied
    expect(runIds(work)).toEqual([damaged])
    const stateFile = join(work, 'results', damaged, 'work', 'state.json')
    writeFileSync(stateFile, readFileSync(stateFile).subarray(0, 40))
    const before = join(work, 'before')
    cpSync(join(work, 'results', damaged), before, { recursive: true })

    const again = await startCampaign(env(work))
    const out = stripVTControlCharacters(again.all ?? '')
    expect(again.exitCode, out).toBe(0)
    const [, started] = runIds(work)
    expect(started).toBeDefined()
    expect(out).toMatch(
      new RegExp(
        `${stateFile.replaceAll('.', '\\.')}: .+; not continuing ${damaged}: its 0 measured runs kept stay as they were; starting ${started}`,
      ),
    )
    const tree = (dir: string) =>
      (readdirSync(dir, { recursive: true }) as string[]).sort().map((p) => [
        p,
        (() => {
          try {
            return readFileSync(join(dir, p), 'latin1')
          } catch {
            return null // a folder
          }
        })(),
      ])
    expect(tree(join(work, 'results', damaged))).toEqual(tree(before))
  })
})

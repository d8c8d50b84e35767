// A CPU campaign cut by a signal and continued (the stage-throughput suite, test/engine/support/cpu-campaign.ts): the
// cut, what the journal kept at the cut, and the checks every continuation must pass against a campaign never cut.
// Shared by the files that cut campaigns at different moments (continue-campaign*.test.ts), so that each file stays
// within CI's 3 minutes and the files run side by side.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { expect } from 'vitest'
import { workDirOf } from '../../../src/engine/context.ts'
import { readRunDirectory } from '../../../src/results/partial-records.ts'
import { readRunEntry } from '../../../src/results/run-journal.ts'
import { readRunState } from '../../../src/results/run-state.ts'
import type { ResultRecord } from '../../../src/results/schema/index.ts'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'
import { keptSoFar, sleep, startCampaign, targetsLeft } from './cpu-campaign.ts'

/**
 * How a campaign is cut: once `afterRuns` runs are kept (or, with `afterRecord`, once its stage record is written),
 * `extraMs` later, `signal` to its whole process group.
 */
export interface Kill {
  afterRuns: number
  extraMs: number
  signal: 'SIGKILL' | 'SIGTERM'
  afterRecord?: boolean
}

/** The stage record files written so far in the campaign's results (none before its run directory exists). */
function recordFiles(work: string): string[] {
  const dir = runDirOrNull(work)
  return dir ? readdirSync(dir).filter((n) => n.startsWith('stage-') && n.endsWith('.json')) : []
}

/**
 * One invocation of the campaign, cut as `kill` says. The moment is counted in runs kept, not seconds: on 2 busy cores
 * a run takes 4 to 20 s, and a kill at a fixed second could land in the warm-up every time.
 */
export async function campaign(env: Record<string, string>, work: string, kill?: Kill) {
  const child = startCampaign(env)
  let ended = false
  void child.finally(() => {
    ended = true
  })
  let cut = false
  const reached = () => (kill?.afterRecord ? recordFiles(work).length > 0 : keptSoFar(work) >= (kill?.afterRuns ?? 0))
  const watch = kill
    ? (async () => {
        while (!ended && !reached()) await sleep(50)
        await sleep(kill.extraMs)
        if (ended) return
        cut = true
        process.kill(-child.pid!, kill.signal)
      })()
    : null
  const result = await child
  await watch
  return { exitCode: result.exitCode, signal: result.signal, cut, output: stripVTControlCharacters(result.all ?? '') }
}

/** The campaign's one run directory; null when a kill came before it was made. */
export function runDirOrNull(work: string): string | null {
  const root = join(work, 'results')
  const ids = existsSync(root) ? readdirSync(root).filter((n) => /^\d{4}-/.test(n)) : []
  expect(ids.length).toBeLessThanOrEqual(1)
  return ids[0] ? join(root, ids[0]) : null
}

function runDir(work: string): string {
  const dir = runDirOrNull(work)
  expect(dir).not.toBeNull()
  return dir!
}

/** label -> startedAt of every run the journal kept (finished before the kill). */
async function keptRuns(dir: string): Promise<Map<string, string>> {
  const kept = new Map<string, string>()
  const work = join(dir, 'work')
  if (!existsSync(work)) return kept
  for (const slot of readdirSync(work)) {
    if (slot === 'measurements' || !existsSync(join(work, slot)) || slot.includes('.')) continue
    for (const run of readdirSync(join(work, slot))) {
      const reading = await readRunEntry(join(work, slot, run))
      if (reading.state === 'kept') kept.set(reading.entry.measured.label, reading.entry.measured.run.startedAt)
    }
  }
  return kept
}

/** Pipeline launches: one folder per attempt at a run (the run's own, and each attempt set aside). */
function attempts(dir: string): number {
  const work = join(dir, 'work')
  return readdirSync(work)
    .filter((slot) => slot !== 'measurements' && !slot.includes('.'))
    .flatMap((slot) => readdirSync(join(work, slot)).filter((n) => existsSync(join(work, slot, n, 'target.log'))))
    .length
}

/** The stage record files of the run directory, name to bytes. */
function recordBytes(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .filter((n) => n.startsWith('stage-') && n.endsWith('.json'))
      .map((n) => [n, readFileSync(join(dir, n), 'utf8')]),
  )
}

export const stageRecord = async (dir: string): Promise<ResultRecord> => {
  const { records } = await readRunDirectory(dir)
  const record = records.find((r) => r.kind === 'stage')
  expect(record).toBeDefined()
  return record!
}

export const perf02 = (r: ResultRecord) =>
  r.verdicts.filter((v) => v.id.startsWith('perf02/')).map((v) => [v.id, v.verdict])

/** The measured runs a campaign of `env` plans (cpuCampaigns' count, VIRNUCPRO_BENCH_RUNS). */
const plannedRuns = (env: Record<string, string>) => Number(env.VIRNUCPRO_BENCH_RUNS)

/** The campaign never cut, into `work`: the runs and answers a cut one must give back, and its output. */
export async function uncutCampaign(
  env: (work: string) => Record<string, string>,
  work = tempDirUntilFileEnd('campaign-whole-'),
): Promise<{ reference: ResultRecord; output: string }> {
  const whole = await campaign(env(work), work)
  expect(whole.exitCode, whole.output).toBe(0)
  const reference = await stageRecord(runDir(work))
  expect(reference.state).toBe('completed')
  // On the CPU the suite's 1-GPU configuration is labelled `1 GPU, v2.0 (cpu)` (profile-configs.ts); its measured
  // runs are numbered after the warm-up.
  const runs = plannedRuns(env(work))
  expect(runs).toBeGreaterThanOrEqual(2)
  expect(reference.runs.map((r) => r.label)).toEqual([
    '1 GPU, v2.0 (cpu) warm-up 1',
    ...Array.from({ length: runs }, (_, i) => `1 GPU, v2.0 (cpu) run ${i + 2}`),
  ])
  expect(perf02(reference).length).toBeGreaterThan(0)
  return { reference, output: whole.output }
}

/**
 * Cuts a campaign as `killAt` says, runs the same command again, and checks the continuation against `reference`.
 * Returns what the cut left: nothing to continue (it finished first, or finished its run), or continued.
 */
export async function cutAndContinue(
  env: (work: string) => Record<string, string>,
  killAt: Kill,
  reference: ResultRecord,
): Promise<'not-cut' | 'finished' | 'continued' | 'record-kept'> {
  const work = tempDirUntilFileEnd('campaign-killed-')
  const first = await campaign(env(work), work, killAt)
  if (!first.cut) return 'not-cut' // it finished before the kill: nothing to continue
  const dir = runDirOrNull(work)
  // The suite holds the run from its global setup to its teardown, and only then handles the signal itself. Cut
  // before (vitest still starting: no run yet) or after (the record written, the run finished), the process ends as
  // any does on SIGTERM (killed by it, or vitest's own handler: exit 143), with nothing to keep or nothing lost; the
  // continued campaign must still give the same runs.
  const finished = dir !== null && (await readRunState(workDirOf(dir, null)))?.state === 'finished'
  const held = dir !== null && !finished
  // Nothing the target started survives the kill (the per-run watchdog after a SIGKILL, live-runs after a SIGTERM):
  // give the watchdog its grace, and no more: the processes are looked for until they are gone or the grace is over
  // (a fixed 6 s wait was 18 s of CI's 25 minutes in this file alone).
  expect(await targetsLeft(work, 6_000), `processes left by ${killAt.signal}`).toEqual([])
  const before = dir ? await keptRuns(dir) : new Map<string, string>()
  // The one count of kept runs the lines give: measured ones, warm-ups apart.
  const measured = [...before.keys()].filter((label) => !/ warm-up \d+$/.test(label)).length
  if (killAt.signal === 'SIGTERM' && !held) {
    expect(first.exitCode === 143 || first.signal === 'SIGTERM', first.output).toBe(true)
  } else if (killAt.signal === 'SIGTERM') {
    expect(first.exitCode, first.output).toBe(143)
    expect(first.output).toContain(`stopped by SIGTERM: ${measured} measured run`)
    expect(first.output).toContain('to continue, run the same command again')
    // The reports come from measured runs: a warm-up alone has no figure to show, and the stop writes none.
    if (measured > 0) {
      const summary = JSON.parse(readFileSync(join(work, 'reports', 'summary.json'), 'utf8'))
      expect(summary.suites.find((s: { kind: string }) => s.kind === 'stage')?.state).toBe('partial')
    } else expect(first.output).not.toContain('reports in')
  }
  if (finished) return 'finished' // a whole campaign, as the uninterrupted one: nothing to continue
  // Cut after its record was written and before its teardown said `finished` (the CI counterexample of issue 45:
  // seed 20261122, afterRuns 1, extraMs 3788, SIGKILL, on a machine where three runs took under 3.8 s): the record is
  // the first invocation's own, its runs measured by it, so none reads as kept from another.
  const recordBefore = dir ? recordBytes(dir) : {}
  const launchesBefore = dir ? attempts(dir) : 0
  const second = await campaign(env(work), work)
  expect(second.exitCode, second.output).toBe(0)
  const record = await stageRecord(runDir(work))
  expect(record.state).toBe('completed')
  expect(record.runs.map((r) => r.label)).toEqual(reference.runs.map((r) => r.label))
  expect(perf02(record)).toEqual(perf02(reference))
  // Issue 44: a run measured now has its `[run] ... run n of m` line; the runs the journal gave back are said as reused.
  const reusedNow = record.runs.filter((r) => before.has(r.label)).length
  const runLines = second.output
    .split('\n')
    .filter((l) => /^\[run\] stage-throughput > .*: (warm-up|run) \d+ of /.test(l))
  expect(runLines.length, second.output).toBe(record.runs.length - reusedNow)
  if (reusedNow > 0)
    expect(second.output).toMatch(
      /^\[run\] stage-throughput > 1 GPU, v2\.0 \(cpu\): .*kept by an earlier invocation, reused, not measured again; /m,
    )
  if (Object.keys(recordBefore).length > 0) {
    // The continuation reuses every run and writes no second record: the one there stays byte for byte.
    expect(recordBytes(runDir(work))).toEqual(recordBefore)
    expect(attempts(runDir(work))).toBe(launchesBefore)
    expect(second.output).toMatch(/\d+ run\(s\) kept from earlier invocations, 0 measured now/)
    return 'record-kept'
  }
  if (measured > 0)
    expect(second.output).toMatch(
      new RegExp(
        `continuing \\S+: stage throughput, 1 GPU, v2\\.0 \\(cpu\\): \\d+ of ${plannedRuns(env(work))} measured runs kept`,
      ),
    )
  for (const run of record.runs) {
    const kept = before.get(run.label)
    // A run finished before the kill is the very run (same start), named as kept; the others are new.
    if (kept) {
      expect(run.run.startedAt, run.label).toBe(kept)
      expect(run.keptFrom, run.label).toBeDefined()
    } else expect(run.keptFrom, run.label).toBeUndefined()
  }
  // No finished run measured twice: launches are the runs, plus at most the one in flight at the kill.
  expect(attempts(runDir(work)) - record.runs.length).toBeLessThanOrEqual(1)
  return 'continued'
}

// A CPU campaign killed and continued, as a user with a job time limit meets it: the stage-throughput suite run by a
// real `vitest run --project gpu` (the reference pipeline on the CPU at its smallest, one fake GPU for the driver check
// and the monitor), killed at a random moment by SIGKILL or SIGTERM to its process group (what Slurm and `timeout`
// send), then run again with the same command into the same results directory. The continued campaign must hold the
// same runs (labels, in order), reuse every run that had finished before the kill unchanged, measure no finished run
// twice, leave no target process behind, and give the same answers (the PERF-02 verdicts, judged on the fake's
// scripted utilization) as a campaign never killed. A SIGTERM ends the invocation with 143, the finished runs and the
// reports written, and a line saying how to continue.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { workDirOf } from '../../src/engine/context.ts'
import { readRunDirectory } from '../../src/results/partial-records.ts'
import { readRunEntry } from '../../src/results/run-journal.ts'
import { readRunState } from '../../src/results/run-state.ts'
import type { ResultRecord } from '../../src/results/schema/index.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'
import { cpuCampaigns, keptSoFar, sleep, startCampaign, targetsOf } from './support/cpu-campaign.ts'

const RUNS = 3
const { pipeline, env: campaignEnv } = await cpuCampaigns(RUNS)

/** How a campaign is cut: once `afterRuns` runs are kept, `extraMs` later, `signal` to its whole process group. */
interface Kill {
  afterRuns: number
  extraMs: number
  signal: 'SIGKILL' | 'SIGTERM'
}

/**
 * One invocation of the campaign, cut as `kill` says. The moment is counted in runs kept, not seconds: on 2 busy cores
 * a run takes 4 to 20 s, and a kill at a fixed second could land in the warm-up every time.
 */
async function campaign(work: string, kill?: Kill) {
  const child = startCampaign(campaignEnv(work))
  let ended = false
  void child.finally(() => {
    ended = true
  })
  let cut = false
  const watch = kill
    ? (async () => {
        while (!ended && keptSoFar(work) < kill.afterRuns) await sleep(100)
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
function runDirOrNull(work: string): string | null {
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

const stageRecord = async (dir: string): Promise<ResultRecord> => {
  const { records } = await readRunDirectory(dir)
  const record = records.find((r) => r.kind === 'stage')
  expect(record).toBeDefined()
  return record!
}
const perf02 = (r: ResultRecord) => r.verdicts.filter((v) => v.id.startsWith('perf02/')).map((v) => [v.id, v.verdict])

describe.skipIf(pipeline.state !== 'ready')('a CPU campaign killed and continued', () => {
  let reference: ResultRecord

  test('uninterrupted: the runs and answers a killed campaign must give back', { timeout: 240_000 }, async () => {
    const work = tempDirUntilFileEnd('campaign-whole-')
    const whole = await campaign(work)
    expect(whole.exitCode, whole.output).toBe(0)
    reference = await stageRecord(runDir(work))
    expect(reference.state).toBe('completed')
    // On the CPU the suite's 1-GPU configuration is labelled `1 GPU (cpu)` (profile-configs.ts).
    expect(reference.runs.map((r) => r.label)).toEqual([
      '1 GPU (cpu) warm-up 1',
      ...[2, 3, 4].map((n) => `1 GPU (cpu) run ${n}`),
    ])
    expect(perf02(reference).length).toBeGreaterThan(0)
  })

  test('killed at a random moment by SIGKILL or SIGTERM, continued: the same runs and answers', {
    timeout: 900_000,
  }, async () => {
    expect(reference, 'the uninterrupted campaign ran first').toBeDefined()
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          afterRuns: fc.integer({ min: 0, max: 3 }),
          extraMs: fc.integer({ min: 0, max: 4_000 }),
          signal: fc.constantFrom('SIGKILL' as const, 'SIGTERM' as const),
        }),
        async (killAt) => {
          const work = tempDirUntilFileEnd('campaign-killed-')
          const first = await campaign(work, killAt)
          if (!first.cut) return // it finished before the kill: nothing to continue
          const dir = runDirOrNull(work)
          // The suite holds the run from its global setup to its teardown, and only then handles the signal itself.
          // Cut before (vitest still starting: no run yet) or after (the record written, the run finished), the
          // process ends as any does on SIGTERM (killed by it, or vitest's own handler: exit 143), with nothing to keep
          // or nothing lost; the continued campaign must still give the same runs.
          const finished = dir !== null && (await readRunState(workDirOf(dir, null)))?.state === 'finished'
          const held = dir !== null && !finished
          // Nothing the target started survives the kill (the per-run watchdog after a SIGKILL, live-runs after a
          // SIGTERM): give the watchdog its grace.
          await new Promise((r) => setTimeout(r, 6_000))
          expect(targetsOf(work), `processes left by ${killAt.signal}`).toEqual([])
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
          if (finished) return // a whole campaign, as the uninterrupted one: nothing to continue
          const second = await campaign(work)
          expect(second.exitCode, second.output).toBe(0)
          if (measured > 0)
            expect(second.output).toMatch(
              /continuing \S+: stage throughput, 1 GPU \(cpu\): \d+ of 3 measured runs kept/,
            )
          const record = await stageRecord(runDir(work))
          expect(record.state).toBe('completed')
          expect(record.runs.map((r) => r.label)).toEqual(reference.runs.map((r) => r.label))
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
          expect(perf02(record)).toEqual(perf02(reference))
        },
      ),
      // Both signals at least once, one early (in the warm-up or first run) and one late; then random moments.
      {
        numRuns: 5,
        examples: [
          [{ afterRuns: 1, extraMs: 1_000, signal: 'SIGTERM' }],
          [{ afterRuns: 2, extraMs: 1_500, signal: 'SIGKILL' }],
          // The moment vitest starts, before the suite holds a run: nothing kept, nothing said, the same campaign after.
          [{ afterRuns: 0, extraMs: 0, signal: 'SIGTERM' }],
        ],
      },
    )
  })
})

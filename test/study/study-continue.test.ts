// Issue 37: a settings study cut by SIGTERM inside its screen (a job's time limit), run as a user runs it
// (`vitest run --project gpu benchmarks/study.gpu.test.ts`, a real process group: the reference pipeline on the CPU,
// one fake GPU). The cut study's reports read its standings so far, PROVISIONAL; the same command continues it: the
// runs kept are given back, only what is missing is measured, and the study ends with its best and two answers.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, test } from 'vitest'
import {
  cpuCampaigns,
  keptSoFar,
  startCampaign,
  startedUntilKept,
  targetsLeft,
} from '../engine/support/cpu-campaign.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const { pipeline, env } = await cpuCampaigns(2)
const STUDY = 'benchmarks/study.gpu.test.ts'
const studyEnv = (work: string) => ({
  ...env(work),
  VIRNUCPRO_BENCH_PRESET: 'SMALL',
  VIRNUCPRO_BENCH_RECORDS: '0',
  // Screened at 8 then 16 records, answered at 16 and 48.
  VIRNUCPRO_BENCH_SIZES: '16,48',
  VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '2',
  VIRNUCPRO_BENCH_SWEEP: '{"--esm-batch-size":[2048,8192]}',
})
const CONTINUE = 'to continue, run the same command again into the same results directory'

interface StudyJson {
  study: { entries: { shows: string; statusText: string; best: string | null; settings: { label: string }[] }[] }
  capacity: { entries: { statusText: string }[] }
}
const summaryOf = (work: string) => JSON.parse(readFileSync(join(work, 'reports', 'summary.json'), 'utf8')) as StudyJson

describe.skipIf(pipeline.state !== 'ready')('a settings study cut inside its screen and continued', () => {
  test('SIGTERM after the warm-up and two runs: its standings read PROVISIONAL; the same command finishes it', {
    timeout: 400_000,
  }, async () => {
    const work = tempDirUntilFileEnd('study-cut-')
    const { child, ended } = await startedUntilKept(studyEnv(work), work, 3, STUDY)
    expect(ended(), 'the study ended before it kept 3 runs').toBe(false)
    process.kill(-child.pid!, 'SIGTERM')
    const cut = await child
    const cutOutput = stripVTControlCharacters(cut.all ?? '')
    expect(cut.exitCode, cutOutput).toBe(143)
    expect(cutOutput).toContain(CONTINUE)
    const [partial] = summaryOf(work).study.entries
    // Before: "no figures yet"; now the screen's standings, each setting measured so far with its median.
    expect(partial).toMatchObject({ shows: 'table', best: null })
    expect(partial!.statusText).toMatch(/^PROVISIONAL \(\d+ of \d+ runs\)$/)
    expect(readFileSync(join(work, 'reports', 'summary.md'), 'utf8')).toContain('PROVISIONAL: still in the screen')
    expect(await targetsLeft(work)).toEqual([])
    const keptBefore = keptSoFar(work)

    const again = await startCampaign(studyEnv(work), STUDY)
    const output = stripVTControlCharacters(again.all ?? '')
    expect(again.exitCode, output).toBe(0)
    // Issue 47: the plan before the first run, then a line a run, the kept ones said so.
    expect(output).toMatch(
      /settings study: 2 setting\(s\) and the default, at most \d+ screening run\(s\) in \d+ round\(s\) \([\d +]+\), then the capacity answers/,
    )
    expect(output).toMatch(
      /settings study round 1 of at most \d+: default, [\d,]+ seqs, round 1 warm-up 1: [\d.]+ s \(kept\); run 1 of at most \d+/,
    )
    // A forecast of the time left with every run, from the round's pace.
    expect(output).toMatch(
      /run \d+ of at most \d+, [\d.]+ min so far, at least about [\d.]+ min left at this round's pace/,
    )
    const given = [...output.matchAll(/settings study of [^:]+: (\d+) run\(s\) kept from earlier invocations/g)]
    expect(given.reduce((a, m) => a + Number(m[1]), 0)).toBe(keptBefore)
    const [done] = summaryOf(work).study.entries
    // Issue 58: a finished study reads as firm as its weakest capacity answer (FINAL only where both are).
    const answers = summaryOf(work).capacity.entries.map((e) => e.statusText)
    const weakest = answers.some((s) => s.startsWith('UNDECIDED'))
      ? 'UNDECIDED'
      : answers.some((s) => s.startsWith('UNCHECKED'))
        ? 'UNCHECKED'
        : 'FINAL'
    expect(done).toMatchObject({ shows: 'table' })
    expect(done!.statusText.split(' ')[0]).toBe(weakest)
    expect(['esm-batch-size=2048', 'esm-batch-size=8192']).toContain(done!.best)
    expect(await targetsLeft(work)).toEqual([])
  })
})

// A CPU campaign killed and continued, as a user with a job time limit meets it: the stage-throughput suite run by a
// real `vitest run --project gpu` (the reference pipeline on the CPU at its smallest, one fake GPU for the driver check
// and the monitor), killed by SIGKILL or SIGTERM to its process group (what Slurm and `timeout` send), then run again
// with the same command into the same results directory. The continued campaign must hold the same runs (labels, in
// order), reuse every run that had finished before the kill unchanged, measure no finished run twice, leave no target
// process behind, and give the same answers (the PERF-02 verdicts, judged on the fake's scripted utilization) as a
// campaign never killed (support/kill-and-continue.ts). Here one cut of each kind: a SIGTERM after the warm-up, a
// SIGKILL inside a measured run, a SIGKILL after the record is written; continue-campaign.long.test.ts adds a SIGTERM
// as vitest starts and random moments (`npm run test:long`).
import { describe, expect, test } from 'vitest'
import type { ResultRecord } from '../../src/results/schema/index.ts'
import { cpuCampaigns } from './support/cpu-campaign.ts'
import { cutAndContinue, uncutCampaign } from './support/kill-and-continue.ts'

// Two measured runs after the warm-up: each cut below still leaves runs to reuse and one or more to measure again or
// anew (a SIGTERM in run 1 leaves both to measure, a SIGKILL in run 2 reuses the warm-up and run 1), and the campaigns
// cost four runs fewer than at three (about 18 s of this file's 150 s). The long file keeps three.
const { pipeline, env } = await cpuCampaigns(2)

describe.skipIf(pipeline.state !== 'ready')('a CPU campaign killed and continued', () => {
  let reference: ResultRecord

  test('uninterrupted: the runs and answers a killed campaign must give back', { timeout: 120_000 }, async () => {
    reference = await uncutCampaign(env)
  })

  test('SIGTERM a second after the warm-up: stopped in one line, continued to the same runs and answers', {
    timeout: 150_000,
  }, async () => {
    expect(reference, 'the uninterrupted campaign ran first').toBeDefined()
    const outcome = await cutAndContinue(env, { afterRuns: 1, extraMs: 1_000, signal: 'SIGTERM' }, reference)
    expect(outcome).toBe('continued')
  })

  test('SIGKILL inside the second measured run: the runs before it reused, the one in flight measured again', {
    timeout: 150_000,
  }, async () => {
    expect(reference, 'the uninterrupted campaign ran first').toBeDefined()
    const outcome = await cutAndContinue(env, { afterRuns: 2, extraMs: 1_500, signal: 'SIGKILL' }, reference)
    expect(['continued', 'record-kept']).toContain(outcome)
  })

  // Issue 45's CI counterexample (seed 20261122, path 3:7:1:2:1:1:1:2:1:7:1:3:1:2: afterRuns 1, extraMs 3788, SIGKILL)
  // landed here on a machine where the three measured runs took under 3.8 s: the record was written, the state not yet
  // `finished`. The continuation keeps that record as it is, and it names no run as kept from another invocation,
  // since the first invocation measured them all. The test expected `keptFrom` on its runs.
  test('SIGKILL once the record is written, before the run is marked finished: the record kept as it is', {
    timeout: 150_000,
  }, async () => {
    expect(reference, 'the uninterrupted campaign ran first').toBeDefined()
    const outcome = await cutAndContinue(
      env,
      { afterRuns: 0, afterRecord: true, extraMs: 0, signal: 'SIGKILL' },
      reference,
    )
    expect(outcome).toBe('record-kept')
  })
})

// A CPU campaign killed and continued (continue-campaign.test.ts says what is checked): a SIGKILL in the middle of a
// measured run, and a SIGTERM the moment vitest starts, before the suite holds a run. Its own file so that it runs
// beside the other in CI and each stays within 3 minutes.
import { describe, expect, test } from 'vitest'
import type { ResultRecord } from '../../src/results/schema/index.ts'
import { cpuCampaigns } from './support/cpu-campaign.ts'
import { cutAndContinue, uncutCampaign } from './support/kill-and-continue.ts'

const { pipeline, env } = await cpuCampaigns(3)

describe.skipIf(pipeline.state !== 'ready')('a CPU campaign killed early and continued', () => {
  let reference: ResultRecord

  test('uninterrupted: the runs and answers a killed campaign must give back', { timeout: 120_000 }, async () => {
    reference = await uncutCampaign(env)
  })

  test('SIGKILL inside the second measured run: the runs before it reused, the one in flight measured again', {
    timeout: 150_000,
  }, async () => {
    expect(reference, 'the uninterrupted campaign ran first').toBeDefined()
    const outcome = await cutAndContinue(env, { afterRuns: 2, extraMs: 1_500, signal: 'SIGKILL' }, reference)
    expect(['continued', 'record-kept']).toContain(outcome)
  })

  test('SIGTERM as vitest starts: nothing kept, nothing said, the same campaign after', {
    timeout: 150_000,
  }, async () => {
    expect(reference, 'the uninterrupted campaign ran first').toBeDefined()
    const outcome = await cutAndContinue(env, { afterRuns: 0, extraMs: 0, signal: 'SIGTERM' }, reference)
    expect(outcome).not.toBe('not-cut')
  })
})

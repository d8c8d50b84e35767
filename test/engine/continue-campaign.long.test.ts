// `npm run test:long` only: the campaign of continue-campaign.test.ts cut by a SIGTERM as vitest starts, then killed at
// random moments (runs kept, then up to 4 s more; SIGKILL or SIGTERM), 20 cases, each continued and checked as the CI
// examples are. About 25 minutes on 2
// cores; CI keeps one example of each kind of moment (continue-campaign*.test.ts).
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { cpuCampaigns } from './support/cpu-campaign.ts'
import { cutAndContinue, uncutCampaign } from './support/kill-and-continue.ts'

const { pipeline, env } = await cpuCampaigns(3)

describe.skipIf(pipeline.state !== 'ready')('a CPU campaign killed at random moments and continued', () => {
  test('each cut continues to the runs and answers of a campaign never cut', { timeout: 3_600_000 }, async () => {
    const { reference } = await uncutCampaign(env)
    // As vitest starts, before the suite holds a run: nothing kept, nothing said, the same campaign after.
    expect(await cutAndContinue(env, { afterRuns: 0, extraMs: 0, signal: 'SIGTERM' }, reference)).not.toBe('not-cut')
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          afterRuns: fc.integer({ min: 0, max: 3 }),
          extraMs: fc.integer({ min: 0, max: 4_000 }),
          signal: fc.constantFrom('SIGKILL' as const, 'SIGTERM' as const),
        }),
        async (killAt) => {
          await cutAndContinue(env, killAt, reference)
        },
      ),
      { numRuns: 20 },
    )
  })
})

import { test } from 'vitest'
import { runTarget } from '../../../../src/pipeline/runner.ts'
import { fakeProfile } from '../../support/fake-profile.ts'

// Started by runner-vitest-timeout.test.ts with FIXTURE_INPUT, FIXTURE_OUTPUT and FIXTURE_TAG set.
test('a target hangs past the test timeout', async () => {
  await runTarget(fakeProfile(), {
    input: process.env.FIXTURE_INPUT!,
    outputDir: process.env.FIXTURE_OUTPUT!,
    env: { FAKE_RUN_TAG: process.env.FIXTURE_TAG! },
    graceMs: 500,
    extraArgs: ['--fake', 'hang-at=2', '--fake', 'setsid-child'],
  })
}, 1_500)

/**
 * Child process for the interrupt tests: starts a fake run that hangs in stage 2 (with an orphan-prone helper that
 * leaves the session), prints READY with the root PID once stage 2 starts, and waits to be killed.
 * Usage: node interrupted-run.ts INPUT OUTPUT_DIR TAG
 */
import { runTarget } from '../../../src/pipeline/runner.ts'
import { fakeProfile } from '../support/fake-profile.ts'

const [input, outputDir, tag] = process.argv.slice(2)
if (!input || !outputDir || !tag) throw new Error('usage: interrupted-run.ts INPUT OUTPUT_DIR TAG')
await runTarget(fakeProfile(), {
  input,
  outputDir,
  env: { FAKE_RUN_TAG: tag },
  graceMs: 500,
  pollIntervalMs: 50,
  extraArgs: ['--fake', 'hang-at=2', '--fake', 'setsid-child', '--fake', 'orphan'],
  onEvent(event) {
    if (event.type === 'stage-start' && event.index === 2) console.log('READY')
  },
})
console.log('FINISHED')

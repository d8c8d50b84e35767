import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { runTarget } from '../../src/target/runner.ts'
import { makeWorkdir, processesWithTag, type Workdir } from './support/fake-profile.ts'
import { scriptProfile } from './support/script-profile.ts'

/**
 * What the target leaves behind (issue 32's fault sweep, "the target's output"). Each case runs a real bash target.
 */

let work: Workdir
beforeEach(async () => {
  work = await makeWorkdir()
})
afterEach(async () => {
  expect(processesWithTag(work.tag)).toEqual([])
  await work.remove()
})

describe("the target's output, however odd, comes back as a whole, bounded record", () => {
  test('a daemon (double fork, setsid) the target leaves behind is ended and named', async () => {
    // The subshell exits at once, so the daemon is re-parented to init; the pause lets it leave the group and the
    // session (setsid) before the target ends, as a real daemon has long done when a run ends.
    const script = '( setsid sleep 600 </dev/null >/dev/null 2>&1 & ); sleep 0.3; "$NOOP" "$@"'
    const record = await runTarget(scriptProfile(script), {
      input: work.input,
      outputDir: work.outputDir,
      env: { FAKE_RUN_TAG: work.tag },
      graceMs: 500,
      pollIntervalMs: 50,
    })
    expect(record.exitClass).toBe('completed')
    const named = [...(record.cleanup?.escapees ?? []), ...(record.cleanup?.survivors.map((s) => s.pid) ?? [])]
    expect(named).toHaveLength(1)
    expect(record.pids).toContain(named[0])
    expect(record.cleanup?.survivors).toEqual([])
  })
})

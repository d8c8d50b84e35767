// Issue 40, case 6a: a stop signal repeated while the graceful stop runs (Ctrl-C pressed twice, a SIGTERM sent again).
// The fault sweep found that a second signal ended the invocation within a second, with no reports and no line saying
// how to continue: the stop's handler had been a `once` one, so the second signal met the default action (death), and
// the report child, in the same process group, died of it too. Now a second signal is said and the stop goes on to its
// reports and its line; a third ends the invocation at once, with a line saying the reports may be incomplete. The
// stage-throughput suite runs as a real process group on the CPU (test/engine/support/cpu-campaign.ts), and the signals
// go to the whole group, as a terminal's Ctrl-C does.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, test } from 'vitest'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'
import { cpuCampaigns, sleep, startedUntilKept, targetsLeft } from './support/cpu-campaign.ts'

const { pipeline, env } = await cpuCampaigns(3)

/** Apart as a person presses Ctrl-C again: well inside the stop, which takes seconds (the workers, then the report). */
const APART_MS = 300

/**
 * A campaign signalled `times` times, APART_MS apart, to its process group once it has kept a measured run (the
 * warm-up and one more); when the last signal went and when the process ended.
 */
async function stopped(work: string, signal: 'SIGINT' | 'SIGTERM', times: number) {
  const { child, ended } = await startedUntilKept(env(work), work, 2)
  expect(ended(), 'the campaign ended before it kept a measured run').toBe(false)
  let lastSentAt = 0
  for (let n = 0; n < times; n++) {
    if (n > 0) await sleep(APART_MS)
    process.kill(-child.pid!, signal)
    lastSentAt = Date.now()
  }
  const result = await child
  const endedAt = Date.now()
  // Before the fix the process died of the second signal itself: its name heads the output the assertions show.
  const output = `${result.signal ?? ''}\n${stripVTControlCharacters(result.all ?? '')}`
  return { result, afterLastMs: endedAt - lastSentAt, output }
}

const CONTINUE = 'to continue, run the same command again into the same results directory'

describe.skipIf(pipeline.state !== 'ready')('a stop signal repeated during the graceful stop', () => {
  test('twice: the second is said, the reports are still written, 130 and how to continue', {
    timeout: 300_000,
  }, async () => {
    const work = tempDirUntilFileEnd('stop-twice-')
    const { result, output } = await stopped(work, 'SIGINT', 2)
    expect(result.exitCode, output).toBe(130)
    expect(output).toContain('virnucpro-bench: SIGINT again: finishing the reports (once more to exit at once)')
    expect(output).toMatch(/virnucpro-bench: stopped by SIGINT: [1-9]\d* measured runs? kept .*reports in /)
    expect(output).toContain(CONTINUE)
    const summary = JSON.parse(readFileSync(join(work, 'reports', 'summary.json'), 'utf8'))
    expect(summary.suites.find((s: { kind: string }) => s.kind === 'stage')?.state).toBe('partial')
    expect(await targetsLeft(work)).toEqual([])
  })

  test('three times: it exits at once, 143, saying the reports may be incomplete and how to continue', {
    timeout: 300_000,
  }, async () => {
    const work = tempDirUntilFileEnd('stop-thrice-')
    const { result, output, afterLastMs } = await stopped(work, 'SIGTERM', 3)
    expect(result.exitCode, output).toBe(143)
    expect(afterLastMs, output).toBeLessThan(5_000)
    expect(output).toContain('virnucpro-bench: SIGTERM again: finishing the reports (once more to exit at once)')
    expect(output).toMatch(
      /virnucpro-bench: stopped by SIGTERM, then twice more: [1-9]\d* measured runs? kept .*may be incomplete/,
    )
    expect(output).toContain(CONTINUE)
    // The run is left as a stopped one, so the same command continues it.
    expect(existsSync(join(work, 'results'))).toBe(true)
    expect(await targetsLeft(work)).toEqual([])
  })
})

// Issue 40, case 3: a finished run run again with its run ID pinned (the requeued Slurm task the README recommends
// pinning for) measured nothing, yet wrote its record a second time (`stage-1-GPU-v2.0-cpu-2.json`), printed every verdict
// twice, and `history add` stored both. Run again, it reuses every kept run and writes no record beside the one there.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, test } from 'vitest'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'
import { cpuCampaigns, startCampaign } from './support/cpu-campaign.ts'

const { pipeline, env } = await cpuCampaigns(2)
const RUN_ID = '2026-11-28T00-00-00Z-a9a9'

/** The run's records, file name to bytes. */
function records(work: string): Record<string, string> {
  const dir = join(work, 'results', RUN_ID)
  return Object.fromEntries(
    readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .map((n) => [n, readFileSync(join(dir, n), 'utf8')]),
  )
}

describe.skipIf(pipeline.state !== 'ready')('a finished run run again (its run ID pinned)', () => {
  test('measures nothing and writes no second record', { timeout: 240_000 }, async () => {
    const work = tempDirUntilFileEnd('finished-again-')
    const pinned = { ...env(work), VIRNUCPRO_BENCH_RUN_ID: RUN_ID }
    const first = await startCampaign(pinned)
    expect(first.exitCode, first.all).toBe(0)
    const before = records(work)
    expect(Object.keys(before)).toEqual(['stage-1-GPU-v2.0-cpu.json'])

    const again = await startCampaign(pinned)
    const out = stripVTControlCharacters(again.all ?? '')
    expect(again.exitCode, out).toBe(0)
    expect(out).toContain(`continuing ${RUN_ID} (VIRNUCPRO_BENCH_RUN_ID; finished`)
    expect(out).toMatch(/3 run\(s\) kept from earlier invocations, 0 measured now/)
    expect(records(work)).toEqual(before)
    // Each verdict once in the closing report, as after the first invocation.
    const verdictLines = (text: string) => text.split('\n').filter((l) => /^gpu-report: (PASS|FAIL) /.test(l))
    expect(verdictLines(out)).toEqual(verdictLines(stripVTControlCharacters(first.all ?? '')))
  })
})

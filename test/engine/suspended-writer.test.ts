// Issue 40, case 1 (the one loss of the fault sweep): a writer suspended (`kill -STOP` of its process group) past its
// lock's lease while a second invocation takes the run over, then resumed (`kill -CONT`). On waking it believed it
// still held the run: it wrote over the second one's `run.json`, added a second record, or a FAILED one beside the
// completed one, and its reports over the second one's. Now every write is fenced by the lock's token: the resumed
// writer stops with one line and changes nothing of what the second invocation wrote.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, test } from 'vitest'
import { STALE_MS, WRITER_FILE } from '../../src/results/writer-lock.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'
import { cpuCampaigns, startCampaign, startedUntilKept, targetsLeft } from './support/cpu-campaign.ts'

// Two measured runs: the second invocation takes the run over after the warm-up and measures both, the first is
// suspended inside its first; a third run would only lengthen the second invocation (about 5 s).
const { pipeline, env } = await cpuCampaigns(2)

/** Every file the run's readers read (its JSON files but the attempts set aside, and the reports), by content hash. */
function snapshot(work: string): Record<string, string> {
  const files: Record<string, string> = {}
  for (const top of ['results', 'reports']) {
    const root = join(work, top)
    if (!existsSync(root)) continue
    for (const rel of readdirSync(root, { recursive: true }) as string[]) {
      const path = join(root, rel)
      if (rel.includes('.attempt-') || !statSync(path).isFile()) continue
      if (top === 'results' && !rel.endsWith('.json')) continue
      files[`${top}/${rel}`] = createHash('sha256').update(readFileSync(path)).digest('hex')
    }
  }
  return files
}

describe.skipIf(pipeline.state !== 'ready')('a writer suspended past its lease, the run taken over', () => {
  test('resumed, it writes nothing: the second invocation keeps its runs, its one record and its reports', {
    timeout: 300_000,
  }, async () => {
    const work = tempDirUntilFileEnd('suspended-writer-')
    // Suspended once it has kept a run (the warm-up) and is measuring the next.
    const { child: first, ended } = await startedUntilKept(env(work), work, 1)
    expect(ended(), 'the first invocation ended before it kept a run').toBe(false)
    process.kill(-first.pid!, 'SIGSTOP')
    try {
      // Its lease runs out: a heartbeat older than STALE_MS is what 60 s of suspension leaves.
      const [runId] = readdirSync(join(work, 'results')).filter((n) => /^\d{4}-/.test(n))
      const lock = join(work, 'results', runId!, 'work', WRITER_FILE)
      const stale = new Date(Date.now() - STALE_MS - 5_000)
      utimesSync(lock, stale, stale)

      const second = await startCampaign(env(work))
      const secondOut = stripVTControlCharacters(second.all ?? '')
      expect(second.exitCode, secondOut).toBe(0)
      expect(secondOut).toContain(`continuing ${runId}`)
      const taken = snapshot(work)
      const records = Object.keys(taken).filter((f) => /^results\/[^/]+\/stage-[^/]+\.json$/.test(f))
      expect(records, 'the second invocation wrote its record').toHaveLength(1)

      process.kill(-first.pid!, 'SIGCONT')
      const resumed = await first
      const out = stripVTControlCharacters(resumed.all ?? '')
      expect(resumed.exitCode, out).not.toBe(0)
      expect(out).toContain('this invocation lost its writer lock')
      expect(out).toContain('it writes nothing more there')
      // Byte for byte what the second invocation left: its runs, its record (no second one, no FAILED one), its state,
      // its invocations and its reports.
      expect(snapshot(work)).toEqual(taken)
      // Its targets end with it: up to 2 s for them to go, as soon as they are gone.
      expect(await targetsLeft(work, 2_000)).toEqual([])
    } finally {
      try {
        process.kill(-first.pid!, 'SIGCONT')
        process.kill(-first.pid!, 'SIGKILL')
      } catch {
        // Already gone.
      }
    }
  })
})

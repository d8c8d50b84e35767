// The settings study's known answer on the CPU, its screen (issue 37): a grid of `--esm-batch-size` alone on the
// starved default (test/validation/support/study-known-answer.ts). The halving must keep the faster two of three
// settings at 8 records, pick 8192 at 40, and measure there the stall it saves against the stall planted. The outputs
// rule, the two capacity answers, the refit and the continuation: study-cpu-outputs-known-answer.test.ts.
import { readFile } from 'node:fs/promises'
import { describe, expect, test } from 'vitest'
import type { StudyStats } from '../../src/study/stats.ts'
import { runStudySuite } from '../../src/study/study.ts'
import { referencePipelineOnCpu } from '../support/reference-pipeline.ts'
import { STALL_MS, studyKnownAnswer } from './support/study-known-answer.ts'

const ready = await referencePipelineOnCpu()
const PLANTED_BEST = 'esm-batch-size=8192'

describe.skipIf(ready.state !== 'ready')('settings study known answer on the CPU: the screen', () => {
  test(`cpu-stall-ms=${STALL_MS}: the halving picks --esm-batch-size 8192 and measures the stall it saves`, async ({
    annotate,
  }) => {
    // The answers at 2 and 8 records: this file reads the screen, not them, and they cost a run a size each.
    const { ctx, m, options } = await studyKnownAnswer(
      { '--esm-batch-size': [256, 2048, 8192] },
      { ladder: [8, 40], capacity: [2, 8] },
    )
    const { record } = await runStudySuite(ctx, m, options)
    const stats = record.stats as unknown as StudyStats
    const row = (label: string) => stats.rows.find((r) => r.label === label)!
    expect(stats.best, JSON.stringify(stats.rows.map((r) => [r.label, r.dropped]))).toBe(PLANTED_BEST)
    // The halving: the default and 3 settings at 8 records, the default and the faster 2 at 40. At 8 records 256
    // tokens take several batches where 2,048 and 8,192 take one each (1,024 takes one too: it tied with them, and
    // the round dropped 8192 on 3 ms), so 256 is the one to go; 40 records part 2048 from 8192.
    expect(stats.rounds.map((r) => [r.records, r.settings.length])).toEqual([
      [8, 4],
      [40, 3],
    ])
    expect(row('esm-batch-size=256').dropped).toMatchObject({ round: 1, why: 'slower' })
    expect(row('esm-batch-size=2048').dropped).toMatchObject({ round: 2, why: 'slower' })
    for (const size of [256, 2048, 8192]) expect(row(`esm-batch-size=${size}`).outputs?.equal).toBe(true)
    // The target's own options for the starved stage, read from its --help: what the bottleneck report names.
    expect(stats.stageOptionsProblem).toBeNull()
    const esm = stats.stageOptions.find((s) => s.stage === 'ESM-2 Feature Extraction')
    expect(esm?.options.map((o) => o.flag)).toContain('--esm-batch-size')

    // The planted saving at 40 records: the ESM-2 batches the default runs beyond the best's (each logs `Batch i:`),
    // a stall each.
    const batchesOf = async (label: string) => {
      const run = record.runs.find((r) => !r.warmup && r.label.startsWith(`${label}, 40 seqs, round 2`))!
      return (await readFile(run.run.logPath!, 'utf8')).match(/ Batch \d+: /g)?.length ?? 0
    }
    const plantedMs = ((await batchesOf('default')) - (await batchesOf(PLANTED_BEST))) * STALL_MS
    expect(plantedMs).toBeGreaterThan(4 * STALL_MS)
    const medianAt40 = (label: string) => row(label).screening.find((s) => s.records === 40)!.wallMs!.median
    const savedMs = medianAt40('default') - medianAt40(PLANTED_BEST)
    await annotate(`saved ${savedMs.toFixed(0)} ms at 40 records against ${plantedMs} ms planted`)
    expect(Math.abs(savedMs / plantedMs - 1), `saved ${savedMs} ms, planted ${plantedMs} ms`).toBeLessThan(0.3)
  }, 600_000)
})

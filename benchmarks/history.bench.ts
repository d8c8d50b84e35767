/**
 * Performance target (issue 19): `virnucpro-bench history changes` over 10,000 runs x 50 metrics in under 2 s on a
 * 2-core CI machine, end to end: a real process (Node start-up, opening SQLite, reading every series, the change-point
 * detector on each, the newest-commit judgement, printing). The history is built once per run of this file through
 * the store's bulk path: one run per commit, +-2% uniform noise, a planted +12% step in 5 of the metrics at run 6,000.
 * Run: npx vitest bench --project 'unit (bench)' benchmarks/history.bench.ts
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { insertSyntheticHistory, syntheticMetric } from '../test/history/support/synthetic-history.ts'
import { tempDirUntilFileEnd } from '../test/support/temp-dir.ts'
import { benchFromSamples } from './support/bench-samples.ts'

const RUNS = 10_000
const METRICS = 50
const BUDGET_MS = 2_000
const CLI = join(import.meta.dirname, '..', 'src', 'cli.ts')

const db = join(tempDirUntilFileEnd('history-bench-'), 'history.sqlite')

test(`history changes over ${RUNS} runs x ${METRICS} metrics < ${BUDGET_MS} ms (a real process)`, async ({ bench }) => {
  const stepped = Array.from({ length: 5 }, (_, i) => syntheticMetric(i))
  insertSyntheticHistory(db, {
    runs: RUNS,
    metrics: METRICS,
    noise: 0.02,
    step: { metrics: stepped, atRun: 6_000, factor: 1.12 },
  })
  const samplesMs: number[] = []
  let output = ''
  for (let i = 0; i < 3; i++) {
    const startedMs = performance.now()
    output = execFileSync(process.execPath, [CLI, 'history', 'changes', '--db', db, '--json'], {
      encoding: 'utf8',
      maxBuffer: 64 * 2 ** 20,
    })
    samplesMs.push(performance.now() - startedMs)
  }
  const result = await benchFromSamples(bench, `history changes, ${RUNS} runs x ${METRICS} metrics`, samplesMs)
  const report = JSON.parse(output) as { changes: { metric: string; fromKey: string }[] }
  const found = new Set(report.changes.map((c) => c.metric))
  console.log(
    `history changes: median ${[...samplesMs].sort((a, b) => a - b)[1]!.toFixed(0)} ms of ${samplesMs.map((m) => m.toFixed(0)).join(' / ')}; ${report.changes.length} change(s) in ${found.size} metric(s), 5 planted`,
  )
  for (const metric of stepped) expect(found.has(metric), metric).toBe(true)
  expect(result.latency.p50).toBeLessThan(BUDGET_MS)
}, 120_000)

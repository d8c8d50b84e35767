/**
 * `virnucpro-bench history changes` over 10,000 runs x 50 metrics, end to end in a real process (Node start-up,
 * opening SQLite, reading every series, the change-point detector on each, the newest-commit judgement, printing).
 * Issue 19's target, printed beside the figures: under 2 s on a 2-core CI machine. It runs in interleaved pairs with a
 * calibration process doing the same kind of work plainly (support/calibrations/history-read.ts: Node start-up, the
 * same SQLite file read whole, the detector calibration's pair loop over every series), the CPU time of each process
 * (support/child-cpu.ts: on a busy machine their wall times moved the ratio from 1.14 to 1.56 between two runs). It
 * fails when a planted step is not found, or when it is slower than this machine's measurements say it was
 * (support/judgement.ts: its saved baseline, or `--against REV`'s CLI on the same database).
 * The history is built once per run of this file through the store's bulk path: one run per commit, +-2% uniform
 * noise, a planted +12% step in 5 of the metrics at run 6,000.
 * Run: npx vitest bench --project 'unit (bench)' benchmarks/history.bench.ts
 */
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { insertSyntheticHistory, syntheticMetric } from '../test/history/support/synthetic-history.ts'
import { tempDirUntilFileEnd } from '../test/support/temp-dir.ts'
import { runWithChildCpu } from './support/child-cpu.ts'
import { expectNoRegression } from './support/judgement.ts'
import { annotateRatio, ratioBench } from './support/ratio-bench.ts'
import { benchSize } from './support/smoke.ts'

const RUNS = benchSize(10_000, 1_000)
const METRICS = benchSize(50, 10)
const BUDGET_MS = 2_000
const CALIBRATION = join(import.meta.dirname, 'support', 'calibrations', 'history-read.ts')

const db = join(tempDirUntilFileEnd('history-bench-'), 'history.sqlite')

test(`history changes over ${RUNS} runs x ${METRICS} metrics (a real process; issue 19's budget ${BUDGET_MS} ms)`, async ({
  bench,
  annotate,
}) => {
  const stepped = Array.from({ length: 5 }, (_, i) => syntheticMetric(i))
  insertSyntheticHistory(db, {
    runs: RUNS,
    metrics: METRICS,
    noise: 0.02,
    step: { metrics: stepped, atRun: Math.round(RUNS * 0.6), factor: 1.12 },
  })
  let output = ''
  let calibrationOutput = ''
  const result = await ratioBench(
    bench,
    (checkout) => ({
      run: () => {
        const cli = join(checkout, 'src', 'cli.ts')
        const run = runWithChildCpu(process.execPath, [cli, 'history', 'changes', '--db', db, '--json'])
        output = run.stdout
        return run
      },
    }),
    {
      run: () => {
        const run = runWithChildCpu(process.execPath, [CALIBRATION, db])
        calibrationOutput = run.stdout
        return run
      },
    },
    {
      subjectName: `history changes, ${RUNS} runs x ${METRICS} metrics`,
      calibrationName: 'node, SQLite read of every series, pair loop (history-read.ts)',
      judgeOn: 'cpu',
      pairs: 3,
      warmupPairs: 0,
    },
  )
  const report = JSON.parse(output) as { changes: { metric: string; fromKey: string }[] }
  const found = new Set(report.changes.map((c) => c.metric))
  // Under --against the second arm is the other revision's CLI, and the calibration does not run.
  const calibration = calibrationOutput ? (JSON.parse(calibrationOutput) as { series: number; points: number }) : null
  await annotateRatio(
    annotate,
    'history changes',
    result,
    `history changes ${result.samples.subjectMs.map((m) => m.toFixed(0)).join(' / ')} ms (issue 19's budget ${BUDGET_MS} ms), ${calibration ? 'calibration' : 'the other revision'} ${result.samples.calibrationMs.map((m) => m.toFixed(0)).join(' / ')} ms${calibration ? ` over ${calibration.series} series` : ''}; ${report.changes.length} change(s) in ${found.size} metric(s), 5 planted`,
  )
  for (const metric of stepped) expect(found.has(metric), metric).toBe(true)
  expectNoRegression(result.judgement, 'history changes')
}, 180_000)

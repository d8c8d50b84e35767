/**
 * src/pipeline's costs. Issue 7's targets, printed beside the figures: running a no-op target through runTarget costs
 * < 50 ms more than spawning it directly (median of interleaved runs), and the log parser keeps up with >= 100,000
 * lines/s. Each test runs in interleaved pairs (support/paired.ts): runTarget with the direct spawn of the same no-op
 * target (wall time: the work is a child process), the log parser with the same lines matched plainly by two regular
 * expressions (support/calibrations/line-match.ts, this process's CPU time); each fails when it is slower than this
 * machine's measurements say it was (support/judgement.ts: its saved baseline, or `--against REV`'s code).
 * Run: npx vitest bench --project 'unit (bench)' benchmarks/runner.bench.ts
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { median } from '../src/measure/estimators.ts'
import { toSorted } from '../src/measure/samples.ts'
import { type TargetProfile, UPSTREAM_EXIT_CODES } from '../src/pipeline/profiles.ts'
import {
  batchLine,
  prefixed,
  stageEnd,
  stageStart,
  summaryBlock,
  UPSTREAM_STAGES,
  workerLine,
} from '../test/pipeline/support/upstream-format.ts'
import { importFrom } from './support/against/checkout.ts'
import { matchLines } from './support/calibrations/line-match.ts'
import { expectNoRegression } from './support/judgement.ts'
import { annotateRatio, ratioBench } from './support/ratio-bench.ts'

type Runner = typeof import('../src/pipeline/runner.ts')
type LogParser = typeof import('../src/pipeline/log-parser.ts')

const OVERHEAD_BUDGET_MS = 50
const LINES_PER_S_TARGET = 100_000
const NOOP = fileURLToPath(new URL('../test/pipeline/fakes/noop_target.sh', import.meta.url))
const noopProfile: TargetProfile = {
  name: 'noop',
  gpuSelection: 'gpus-flag',
  exitCodes: UPSTREAM_EXIT_CODES,
  launcher: async () => ({ state: 'ready', launcher: { file: '/bin/sh', args: [NOOP], env: {} } }),
  preflight: async () => ({ state: 'ready', python: '/bin/sh', detail: 'no-op' }),
}

let dir: string
let input: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'runner-bench-'))
  input = join(dir, 'sample.fa')
  await writeFile(input, '>s\nACGT\n')
})
afterAll(() => rm(dir, { recursive: true, force: true }))

async function spawnDirect(outputDir: string): Promise<void> {
  const child = spawn('/bin/sh', [NOOP, 'predict', input, '-o', outputDir, '--force'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout.resume()
  child.stderr.resume()
  await once(child, 'close')
}

async function viaHarness(runTarget: Runner['runTarget'], outputDir: string): Promise<void> {
  const record = await runTarget(noopProfile, { input, outputDir })
  if (record.exitClass !== 'completed') throw new Error(`no-op run ended ${record.exitClass}: ${record.reason}`)
}

test(`runTarget against a direct spawn of a no-op target (issue 7: overhead < ${OVERHEAD_BUDGET_MS} ms)`, async ({
  bench,
  annotate,
}) => {
  let n = 0
  const result = await ratioBench(
    bench,
    async (checkout) => {
      const { runTarget } = await importFrom<Runner>(checkout, 'src/pipeline/runner.ts')
      return { run: () => viaHarness(runTarget, join(dir, `h${n++}`)) }
    },
    { run: () => spawnDirect(join(dir, `d${n++}`)) },
    {
      subjectName: 'no-op target: runTarget',
      calibrationName: 'no-op target: direct spawn',
      judgeOn: 'wall',
      pairs: 100,
      warmupPairs: 4,
    },
  )
  const direct = median(toSorted(result.samples.calibrationMs))
  const harness = median(toSorted(result.samples.subjectMs))
  await annotateRatio(
    annotate,
    'no-op target',
    result,
    `direct spawn median ${direct.toFixed(1)} ms, runTarget median ${harness.toFixed(1)} ms, overhead ${(harness - direct).toFixed(1)} ms (issue 7: < ${OVERHEAD_BUDGET_MS} ms; ${result.ratio.pairs} pairs)`,
  )
  expectNoRegression(result.judgement, 'no-op target')
})

function sampleLog(lineCount: number): string[] {
  const unit: string[] = []
  UPSTREAM_STAGES.forEach((name, i) => {
    unit.push(prefixed(stageStart(i + 1, name)))
    for (let b = 1; b <= 8; b++)
      unit.push(workerLine(b % 2, batchLine(b, b * 128, 1024, 0.91, 16474, 321.5, '0:01:00')))
    unit.push(prefixed(`Processing file output_${i}.fa`), 'Traceback-free unrelated print line')
    unit.push(
      prefixed(
        stageEnd(name, 1.5 * (i + 1), [
          ['sequences', 12345 * (i + 1)],
          ['files', 3],
        ]),
      ),
    )
  })
  const summary = summaryBlock({
    totalS: 100,
    stages: UPSTREAM_STAGES.map((name) => ({ name, durationS: 10 })),
    sequences: 1,
  })
  unit.push(...summary.map((m) => prefixed(m)))
  return Array.from({ length: lineCount }, (_, k) => unit[k % unit.length]!)
}

test(`log parser throughput (issue 7: >= ${LINES_PER_S_TARGET.toLocaleString('en')} lines/s)`, async ({
  bench,
  annotate,
}) => {
  const lines = sampleLog(100_000)
  let events = 0
  let matched = 0
  const result = await ratioBench(
    bench,
    async (checkout) => {
      const { createLogParser } = await importFrom<LogParser>(checkout, 'src/pipeline/log-parser.ts')
      return {
        run: () => {
          const parser = createLogParser()
          for (let k = 0; k < lines.length; k++) events += parser.push(lines[k]!, k).length
        },
      }
    },
    { run: () => (matched = matchLines(lines)) },
    {
      subjectName: 'parse 100,000 upstream log lines',
      calibrationName: 'match 100,000 lines against two regular expressions',
      judgeOn: 'cpu',
      pairs: 10,
      warmupPairs: 2,
    },
  )
  const linesPerS = lines.length / (median(toSorted(result.samples.subjectMs)) / 1000)
  console.log(
    `log parser: ${Math.round(linesPerS).toLocaleString('en-US')} lines/s (median ${median(toSorted(result.samples.subjectMs)).toFixed(1)} ms per 100,000 lines, ${events > 0 ? 'events emitted' : 'NO EVENTS'})`,
  )
  await annotateRatio(
    annotate,
    'log parser',
    result,
    `${Math.round(linesPerS).toLocaleString('en-US')} lines/s (issue 7: >= ${LINES_PER_S_TARGET.toLocaleString('en')}), plain matching ${Math.round(lines.length / (median(toSorted(result.samples.calibrationMs)) / 1000)).toLocaleString('en-US')} lines/s (${matched} matched)`,
  )
  expect(events).toBeGreaterThan(0)
  expectNoRegression(result.judgement, 'log parser')
})

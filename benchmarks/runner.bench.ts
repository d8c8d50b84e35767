/**
 * Performance targets of src/target (issue 7): running a no-op target through runTarget costs < 50 ms more than
 * spawning it directly (median of interleaved runs), and the log parser keeps up with >= 100,000 lines/s.
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
import { createLogParser } from '../src/target/log-parser.ts'
import { type TargetProfile, UPSTREAM_EXIT_CODES } from '../src/target/profiles.ts'
import { runTarget } from '../src/target/runner.ts'
import {
  batchLine,
  prefixed,
  stageEnd,
  stageStart,
  summaryBlock,
  UPSTREAM_STAGES,
  workerLine,
} from '../test/target/support/upstream-format.ts'

const NOOP = fileURLToPath(new URL('../test/target/fakes/noop_target.sh', import.meta.url))
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

async function viaHarness(outputDir: string): Promise<void> {
  const record = await runTarget(noopProfile, { input, outputDir })
  if (record.exitClass !== 'completed') throw new Error(`no-op run ended ${record.exitClass}: ${record.reason}`)
}

test('runTarget overhead over a direct spawn of a no-op target < 50 ms (median of interleaved runs)', async ({
  bench,
}) => {
  const directMs: number[] = []
  const harnessMs: number[] = []
  let i = 0
  // One iteration = one direct spawn and one runTarget, in alternating order, so drift hits both arms alike.
  const result = await bench('no-op target: direct spawn + runTarget (paired)', async () => {
    const n = i++
    const arms = n % 2 === 0 ? (['direct', 'harness'] as const) : (['harness', 'direct'] as const)
    for (const arm of arms) {
      const t0 = performance.now()
      if (arm === 'direct') await spawnDirect(join(dir, `d${n}`))
      else await viaHarness(join(dir, `h${n}`))
      ;(arm === 'direct' ? directMs : harnessMs).push(performance.now() - t0)
    }
  }).run({ iterations: 40, warmupIterations: 4, time: 0 })
  const direct = median(toSorted(directMs.slice(4)))
  const harness = median(toSorted(harnessMs.slice(4)))
  console.log(
    `no-op target: direct spawn median ${direct.toFixed(1)} ms, runTarget median ${harness.toFixed(1)} ms, ` +
      `overhead ${(harness - direct).toFixed(1)} ms (${directMs.length - 4} pairs; pair mean ${result.latency.mean.toFixed(1)} ms)`,
  )
  expect(harness - direct).toBeLessThan(50)
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

test('log parser throughput >= 100,000 lines/s', async ({ bench }) => {
  const lines = sampleLog(100_000)
  let events = 0
  const result = await bench('parse 100,000 upstream log lines', () => {
    const parser = createLogParser()
    for (let k = 0; k < lines.length; k++) events += parser.push(lines[k]!, k).length
  }).run({ iterations: 10, warmupIterations: 2, time: 0 })
  const linesPerS = lines.length / (result.latency.p50 / 1000)
  console.log(
    `log parser: ${Math.round(linesPerS).toLocaleString('en-US')} lines/s (median ${result.latency.p50.toFixed(1)} ms per 100,000 lines, ${events > 0 ? 'events emitted' : 'NO EVENTS'})`,
  )
  expect(events).toBeGreaterThan(0)
  expect(linesPerS).toBeGreaterThanOrEqual(100_000)
})

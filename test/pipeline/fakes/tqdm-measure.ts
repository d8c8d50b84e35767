/**
 * Child process for the long tqdm stream test (test/pipeline/runner-long-line.test.ts): reads the same stream
 * (fakes/tqdm-stream.ts) twice, once with a plain byte scan (count the bytes and the line ends, nothing else) and once
 * through the real runner (runTarget: line splitter, log file, parser, record), and prints one JSON line with each
 * one's bytes per second and CPU time, the runner's peak heap (with --expose-gc: after a full GC every 100 ms) and RSS
 * growth (sampled every 5 ms) and what it read. `--max-semi-space-size=1` keeps the raw peak (also printed) close.
 * Usage: node --expose-gc --max-semi-space-size=1 tqdm-measure.ts WORKDIR HOURS
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import type { TargetProfile } from '../../../src/pipeline/profiles.ts'
import { runTarget } from '../../../src/pipeline/runner.ts'

const GENERATOR = fileURLToPath(new URL('./tqdm-stream.ts', import.meta.url))
const [workdir, hours] = process.argv.slice(2) as [string, string]
const input = `${workdir}/sample.fa`
const streamArgs = ['--hours', hours]

async function plainScan(): Promise<{ bytes: number; lineEnds: number; ms: number; cpuMs: number }> {
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  const child = spawn(
    process.execPath,
    [GENERATOR, 'predict', input, '-o', `${workdir}/plain`, '--force', ...streamArgs],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let bytes = 0
  let lineEnds = 0
  const count = (chunk: Buffer) => {
    bytes += chunk.length
    for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) lineEnds++
    for (let at = chunk.indexOf(13); at >= 0; at = chunk.indexOf(13, at + 1)) lineEnds++
  }
  child.stdout.on('data', count)
  child.stderr.on('data', count)
  await once(child, 'close')
  return { bytes, lineEnds, ms: performance.now() - t0, cpuMs: cpuMsSince(cpu0) }
}

/** CPU time of this process (all its threads: the log file's writes too) since `start`. */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000
}

const profile: TargetProfile = {
  name: 'tqdm-stream',
  gpuSelection: 'gpus-flag',
  exitCodes: { 0: 'completed' },
  launcher: async () => ({ state: 'ready', launcher: { file: process.execPath, args: [GENERATOR], env: {} } }),
  preflight: async () => ({ state: 'ready', python: process.execPath, detail: 'node' }),
}

async function throughRunner() {
  const counts: Record<string, number> = {}
  const base = process.memoryUsage()
  const peak = { heapUsed: base.heapUsed, rss: base.rss }
  const sampler = setInterval(() => {
    const now = process.memoryUsage()
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed)
    peak.rss = Math.max(peak.rss, now.rss)
  }, 5)
  // What the runner holds, not what it let go: the raw peak above holds garbage a major GC had not yet swept (the same
  // 10-hour stream read +2 to +11 MB by the moment one came), so with --expose-gc a full GC every 100 ms is followed
  // by a reading, and the peak of those is the heap judged.
  const gc = (globalThis as { gc?: () => void }).gc
  gc?.()
  const retainedBase = process.memoryUsage().heapUsed
  let retainedPeak = retainedBase
  const collector = gc
    ? setInterval(() => {
        gc()
        retainedPeak = Math.max(retainedPeak, process.memoryUsage().heapUsed)
      }, 100)
    : null
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  const record = await runTarget(profile, {
    input,
    outputDir: `${workdir}/out`,
    logPath: `${workdir}/run.log`,
    extraArgs: streamArgs,
    graceMs: 1_000,
    onEvent: (e) => {
      counts[e.type] = (counts[e.type] ?? 0) + 1
    },
  })
  const ms = performance.now() - t0
  const cpuMs = cpuMsSince(cpu0)
  clearInterval(sampler)
  if (collector) clearInterval(collector)
  return {
    ms,
    cpuMs,
    heapGrowthBytes: gc ? retainedPeak - retainedBase : peak.heapUsed - base.heapUsed,
    rawHeapGrowthBytes: peak.heapUsed - base.heapUsed,
    rssGrowthBytes: peak.rss - base.rss,
    counts,
    exitClass: record.exitClass,
    reason: record.reason,
    stages: record.stages.map((s) => [s.name, s.logDurationS, s.summaryDurationS]),
    summarySequences: record.summary?.sequencesProcessed ?? null,
    logTailChars: record.logTail.reduce((sum, l) => sum + l.length, 0),
    lastTailLine: record.logTail.at(-1) ?? null,
  }
}

const plain = await plainScan()
const runner = await throughRunner()
console.log(
  JSON.stringify({
    bytes: plain.bytes,
    lineEnds: plain.lineEnds,
    plainBytesPerS: plain.bytes / (plain.ms / 1000),
    runnerBytesPerS: plain.bytes / (runner.ms / 1000),
    plainMs: plain.ms,
    plainCpuMs: plain.cpuMs,
    ...runner,
  }),
)

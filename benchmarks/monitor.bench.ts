/**
 * CPU cost of the monitor's sampling thread over 8 GPUs of the fake libnvidia-ml, so this is the monitor's own cost
 * (N-API crossings, records, JSON, one write(2) per tick), not the driver's. Issue 5's targets, printed beside the
 * figures: at 100 ms < 1% of one core, at 10 ms < 5%. The figure is the sampling thread's CPU time
 * (process.threadCpuUsage() inside the worker, user + system) from 1 s after the first tick (a fresh worker isolate
 * spends its first second compiling the tick code) per tick taken; the whole-window share, start-up included, is
 * printed beside it.
 * Pass/fail is a ratio measured in the run (issue 26): that CPU per tick against a plain sampling thread's, run beside
 * the monitor over the same window at the same interval (support/calibrations/plain-sampler-worker.ts: the same reads
 * through the raw addon calls, the records as JSON, one write a tick), so both ticks see the same machine at the same
 * moment, caches as cold between ticks; each test fails when the median ratio over its windows passes its limit.
 * (A calibration ticking in a tight loop on the main thread read 62-130 us a tick against the monitor's 656-1,015 us
 * at 100 ms here, the ratio 7.0 to 10.7 over four runs.) Measured here (support/ratio.ts) over 4 runs: at 100 ms
 * 1.72-1.84, at 10 ms 1.06-1.21; a run with a planted 30% slowdown read 2.51 and 1.82. The limits beside the
 * constants below take in the runs since.
 * Run: npx vitest bench --project 'unit (bench)' benchmarks/monitor.bench.ts
 */
import { expect, test } from 'vitest'
import { summarize, toSorted } from '../src/measure/index.ts'
import { GpuMonitor } from '../src/monitor/monitor.ts'
import { ADDON_PATH, sleep, tempLogPath, useFake } from '../test/monitor/support/fake.ts'
import type { FakeDevice } from '../test/support/fake-nvml.ts'
import { benchFromSamples } from './support/bench-samples.ts'
import { runPlainSampler } from './support/calibrations/plain-sampler.ts'
import { plantedLabel, plantOnCpuUs } from './support/planted-slowdown.ts'
import { formatJudgement, judgeRatio } from './support/ratio.ts'
import { expectWithinLimit } from './support/ratio-bench.ts'

const GPU_COUNT = 8
const WINDOW_MS = 5_000
/** LIMIT_AT_100_MS: the highest median ratio of the runs without a planted slowdown, 1.92 (the header's runs; 2026-11-25 quiet: 1.72; 2026-11-26, three whole `vitest bench` runs on this quiet 2-core machine: 1.64, 1.65, 1.69; the file alone 1.69, 1.92), x 1.15 (support/ratio.ts says why not tighter). A planted 30% fails a run whose median is above limit / 1.3 (1.73): some of these runs. */
const LIMIT_AT_100_MS = 2.25
/** LIMIT_AT_10_MS: the highest median ratio of the runs without a planted slowdown, 1.53 (the header's runs 1.06-1.21; 2026-11-26, three whole `vitest bench` runs on this quiet 2-core machine: 1.53, 1.47, 1.20; the file alone 1.21, 1.23), x 1.15 (support/ratio.ts says why not tighter). The limit before, 1.4, failed two of those three runs with nothing regressed: when this file ran after the others, all its windows read high (1.26-1.59), first or alone 0.94-1.62 with medians near 1.2. A planted 30% fails a run whose median is above limit / 1.3 (1.38): the runs that read high; a planted run read 1.38. */
const LIMIT_AT_10_MS = 1.8

const h200 = (i: number): FakeDevice => ({
  name: 'NVIDIA H200',
  utilGpuPct: [0, 35, 100, 100, 80],
  powerMw: [120_000, 450_000, 690_000],
  memUsedBytes: [10_000_000_000, 60_000_000_000],
  energyMj: [1_000_000, 1_200_000, 1_400_000],
  gpm: { 2: [80, 90], 5: 70, 10: 15 },
  samplesGpu: Array.from({ length: 20 }, (_, k) => ({ timeStampUs: (Date.now() + k * 200) * 1000, valuePct: 90 })),
  processes: [{ pid: 1_000 + i, usedGpuMemoryBytes: 40_000_000_000 }],
})

useFake({ devices: Array.from({ length: GPU_COUNT }, (_, i) => h200(i)) })

interface CpuShare {
  steadyPct: number
  wholePct: number
  /** Steady CPU time, us, and the ticks it took: the steady window's slots times the share of slots taken. */
  steadyCpuUs: number
  steadyTicks: number
  /** The window's wall time, start and stop included, ms. */
  wallMs: number
}

/** One monitored window; returns the sampling thread's CPU as % of one core, steady and over the whole window. */
async function cpuShare(intervalMs: number): Promise<CpuShare> {
  const startMs = performance.now()
  const started = await GpuMonitor.start({ addonPath: ADDON_PATH, logPath: tempLogPath(), intervalMs })
  if (started.state !== 'started') throw new Error(started.reason)
  await sleep(WINDOW_MS)
  const result = await started.monitor.stop()
  if (result.state !== 'completed') throw new Error(result.error)
  const { cpuUserUs, cpuSystemUs, ticks, steady } = result.worker
  const endMs = result.summary.durationMs
  expect(ticks).toBeGreaterThan((WINDOW_MS / intervalMs) * 0.5)
  if (!steady) throw new Error('monitor window too short for a steady CPU figure')
  const steadyTicks = ((endMs - steady.fromMs) / intervalMs) * (ticks / (ticks + result.worker.missedTicks))
  return {
    steadyPct: (steady.cpuUs / 1000 / (endMs - steady.fromMs)) * 100,
    wholePct: ((cpuUserUs + cpuSystemUs) / 1000 / endMs) * 100,
    steadyCpuUs: steady.cpuUs,
    steadyTicks,
    wallMs: performance.now() - startMs,
  }
}

interface PairedTicks {
  shares: CpuShare[]
  /** Per kept window: the monitor's steady CPU per tick (a planted slowdown's burn added) and the plain thread's, us. */
  subjectUs: number[]
  calibrationUs: number[]
}

/** `windows` windows after a dropped warm-up one, each with the plain sampling thread running beside the monitor. */
async function measureTicks(intervalMs: number, windows: number): Promise<PairedTicks> {
  const measured: PairedTicks = { shares: [], subjectUs: [], calibrationUs: [] }
  for (let window = 0; window <= windows; window++) {
    const [share, plain] = await Promise.all([
      cpuShare(intervalMs),
      runPlainSampler({ intervalMs, durationMs: WINDOW_MS, gpuCount: GPU_COUNT, logPath: tempLogPath('plain.jsonl') }),
    ])
    if (window === 0) continue
    measured.shares.push(share)
    // A planted slowdown burns its share of the whole steady window's CPU time: one tick's share (~0.3 ms) is below
    // the CPU clock's grain.
    measured.subjectUs.push((share.steadyCpuUs + plantOnCpuUs(share.steadyCpuUs)) / share.steadyTicks)
    measured.calibrationUs.push(plain.steadyCpuPerTickUs)
  }
  return measured
}

const fmt = (values: number[]) => {
  const stats = summarize(toSorted(values, 'cpu percent'))
  return {
    stats,
    text: `median ${stats.median.toFixed(3)}% (min ${stats.min.toFixed(3)}, max ${stats.max.toFixed(3)})`,
  }
}

for (const [intervalMs, budgetPct, limit] of [
  [100, 1, LIMIT_AT_100_MS],
  [10, 5, LIMIT_AT_10_MS],
] as const) {
  test(`monitor at ${intervalMs} ms over ${GPU_COUNT} GPUs (fake): CPU per tick (issue 5: < ${budgetPct}% of one core)`, async ({
    bench,
    annotate,
  }) => {
    const measured = await measureTicks(intervalMs, 3)
    // The windows' wall times under the bench's old name, so its stored results stay comparable; the CPU is below.
    await benchFromSamples(
      bench,
      `monitor ${intervalMs} ms x ${GPU_COUNT} GPUs, ${WINDOW_MS} ms window${plantedLabel()}`,
      measured.shares.map((share) => share.wallMs),
    )
    const toMs = (us: number[]) => us.map((x) => x / 1000)
    await benchFromSamples(
      bench,
      `monitor ${intervalMs} ms x ${GPU_COUNT} GPUs: CPU time per tick${plantedLabel()}`,
      toMs(measured.subjectUs),
    )
    await benchFromSamples(bench, `calibration: plain sampling thread, CPU time per tick`, toMs(measured.calibrationUs))
    const judgement = judgeRatio(measured.subjectUs, measured.calibrationUs, limit)
    const steady = fmt(measured.shares.map((s) => s.steadyPct))
    const whole = fmt(measured.shares.map((s) => s.wholePct))
    const perTick = (values: number[]) => values.map((us) => us.toFixed(0)).join('/')
    await annotate(
      `monitor CPU at ${intervalMs} ms x ${GPU_COUNT} GPUs${plantedLabel()}: cpu ${formatJudgement(judgement)}; ` +
        `per tick ${perTick(measured.subjectUs)} us, plain tick ${perTick(measured.calibrationUs)} us; ` +
        `% of one core over ${measured.shares.length} windows: steady ${steady.text} (issue 5: < ${budgetPct}%), whole window incl. start-up ${whole.text}`,
    )
    expect(measured.shares.every((s) => s.steadyCpuUs > 0)).toBe(true)
    expectWithinLimit(judgement, `monitor at ${intervalMs} ms`)
  })
}

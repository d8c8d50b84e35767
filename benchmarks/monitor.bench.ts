/**
 * CPU cost of the monitor's sampling thread over 8 GPUs of the fake libnvidia-ml, so this is the monitor's own cost
 * (N-API crossings, records, JSON, one write(2) per tick), not the driver's. Issue 5's targets, printed beside the
 * figures: at 100 ms < 1% of one core, at 10 ms < 5%. The figure is the sampling thread's CPU time
 * (process.threadCpuUsage() inside the worker, user + system) from 1 s after the first tick (a fresh worker isolate
 * spends its first second compiling the tick code) per tick taken; the whole-window share, start-up included, is
 * printed beside it.
 * Its calibration is a plain sampling thread, run beside the monitor over the same window at the same interval
 * (support/calibrations/plain-sampler-worker.ts: the same reads through the raw addon calls, the records as JSON, one
 * write a tick), so both ticks see the same machine at the same moment, caches as cold between ticks. (A calibration
 * ticking in a tight loop on the main thread read 62-130 us a tick against the monitor's 656-1,015 us at 100 ms here,
 * the ratio 7.0 to 10.7 over four runs.) Each test fails when the monitor is slower than this machine's measurements
 * say it was (support/judgement.ts: its saved baseline, or under `--against REV` REV's monitor, its own addon build,
 * run beside this one in each window instead of the plain thread).
 * Run: npx vitest bench --project 'unit (bench)' benchmarks/monitor.bench.ts
 */
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { summarize, toSorted } from '../src/measure/index.ts'
import { sleep, tempLogPath, useFake } from '../test/monitor/support/fake.ts'
import type { FakeDevice } from '../test/support/fake-nvml.ts'
import { importFrom, otherCheckout, THIS_CHECKOUT } from './support/against/checkout.ts'
import { benchFromSamples } from './support/bench-samples.ts'
import { runPlainSampler } from './support/calibrations/plain-sampler.ts'
import { expectNoRegression, judgeRun } from './support/judgement.ts'
import { plantedLabel, plantOnCpuUs } from './support/planted-slowdown.ts'
import { formatRatios, summarizeRatios } from './support/ratio.ts'
import { benchSize } from './support/smoke.ts'

type Monitor = typeof import('../src/monitor/monitor.ts')

const GPU_COUNT = 8
/** A window, ms: the steady figure starts 1 s after the first tick, so the smoke pass keeps 2.5 s. */
const WINDOW_MS = benchSize(5_000, 2_500)
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

/** A checkout's monitor and its own build of the addon. */
interface MonitorOf {
  GpuMonitor: Monitor['GpuMonitor']
  addonPath: string
}

async function monitorOf(checkout: string): Promise<MonitorOf> {
  const { GpuMonitor } = await importFrom<Monitor>(checkout, 'src/monitor/monitor.ts')
  return { GpuMonitor, addonPath: join(checkout, 'build', 'Release', 'nvml.node') }
}

/** One monitored window; returns the sampling thread's CPU as % of one core, steady and over the whole window. */
async function cpuShare({ GpuMonitor, addonPath }: MonitorOf, intervalMs: number): Promise<CpuShare> {
  const startMs = performance.now()
  const started = await GpuMonitor.start({ addonPath, logPath: tempLogPath(), intervalMs })
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
  /**
   * Per kept window: the monitor's steady CPU per tick (a planted slowdown's burn added) and the second thread's (the
   * plain one, or under --against the other revision's monitor), us.
   */
  subjectUs: number[]
  calibrationUs: number[]
}

/** The thread run beside the monitor: the plain sampling thread, or the other revision's monitor. */
async function secondThread(intervalMs: number): Promise<() => Promise<number>> {
  const other = otherCheckout()
  if (!other)
    return async () =>
      (
        await runPlainSampler({
          intervalMs,
          durationMs: WINDOW_MS,
          gpuCount: GPU_COUNT,
          logPath: tempLogPath('plain.jsonl'),
        })
      ).steadyCpuPerTickUs
  const monitor = await monitorOf(other.root)
  return async () => {
    const share = await cpuShare(monitor, intervalMs)
    return share.steadyCpuUs / share.steadyTicks
  }
}

/** One window of both threads, `first` started first; returns this checkout's monitor and the second thread's us a tick. */
async function sideBySide(
  monitor: MonitorOf,
  second: () => Promise<number>,
  intervalMs: number,
  first: 'monitor' | 'second',
): Promise<{ share: CpuShare; secondUs: number }> {
  if (first === 'monitor') {
    const [share, secondUs] = await Promise.all([cpuShare(monitor, intervalMs), second()])
    return { share, secondUs }
  }
  const [secondUs, share] = await Promise.all([second(), cpuShare(monitor, intervalMs)])
  return { share, secondUs }
}

/**
 * `windows` kept windows after a dropped warm-up one, the second thread running beside the monitor. The thread started
 * first pays more per tick (under --against a monitor started first read 1.32x the other's at 100 ms, same code), so
 * the start order alternates from window to window; under --against, where both arms are monitors, each kept window is
 * two, one of each order, averaged.
 */
async function measureTicks(intervalMs: number, windows: number): Promise<PairedTicks> {
  const measured: PairedTicks = { shares: [], subjectUs: [], calibrationUs: [] }
  const monitor = await monitorOf(THIS_CHECKOUT)
  const second = await secondThread(intervalMs)
  const bothOrders = otherCheckout() !== null
  for (let window = 0; window <= windows; window++) {
    const orders: Array<'monitor' | 'second'> = bothOrders
      ? ['monitor', 'second']
      : [window % 2 === 0 ? 'monitor' : 'second']
    let subjectUs = 0
    let secondUs = 0
    for (const first of orders) {
      const one = await sideBySide(monitor, second, intervalMs, first)
      if (window === 0) continue
      measured.shares.push(one.share)
      // A planted slowdown burns its share of the whole steady window's CPU time: one tick's share (~0.3 ms) is below
      // the CPU clock's grain.
      subjectUs += (one.share.steadyCpuUs + plantOnCpuUs(one.share.steadyCpuUs)) / one.share.steadyTicks / orders.length
      secondUs += one.secondUs / orders.length
    }
    if (window === 0) continue
    measured.subjectUs.push(subjectUs)
    measured.calibrationUs.push(secondUs)
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

for (const [intervalMs, budgetPct] of [
  [100, 1],
  [10, 5],
] as const) {
  test(`monitor at ${intervalMs} ms over ${GPU_COUNT} GPUs (fake): CPU per tick (issue 5: < ${budgetPct}% of one core)`, async ({
    bench,
    annotate,
  }) => {
    const measured = await measureTicks(intervalMs, benchSize(3, 1))
    // The windows' wall times under the bench's old name, so its stored results stay comparable; the CPU is below.
    await benchFromSamples(
      bench,
      `monitor ${intervalMs} ms x ${GPU_COUNT} GPUs, ${WINDOW_MS} ms window${plantedLabel()}`,
      measured.shares.map((share) => share.wallMs),
    )
    const toMs = (us: number[]) => us.map((x) => x / 1000)
    const name = `monitor ${intervalMs} ms x ${GPU_COUNT} GPUs: CPU time per tick`
    await benchFromSamples(bench, `${name}${plantedLabel()}`, toMs(measured.subjectUs))
    const other = otherCheckout()
    const secondName = other
      ? `${name} (against ${other.commit.slice(0, 10)})`
      : 'calibration: plain sampling thread, CPU time per tick'
    await benchFromSamples(bench, secondName, toMs(measured.calibrationUs))
    const judgement = await judgeRun(name, {
      judgeOn: 'cpu',
      subjectCosts: toMs(measured.subjectUs),
      calibrationCosts: toMs(measured.calibrationUs),
    })
    const steady = fmt(measured.shares.map((s) => s.steadyPct))
    const whole = fmt(measured.shares.map((s) => s.wholePct))
    const perTick = (values: number[]) => values.map((us) => us.toFixed(0)).join('/')
    await annotate(
      `monitor CPU at ${intervalMs} ms x ${GPU_COUNT} GPUs${plantedLabel()}: cpu ${formatRatios(summarizeRatios(measured.subjectUs, measured.calibrationUs))}; ` +
        `per tick ${perTick(measured.subjectUs)} us, ${other ? `${other.commit.slice(0, 10)}'s monitor` : 'plain'} tick ${perTick(measured.calibrationUs)} us; ` +
        `% of one core over ${measured.shares.length} windows: steady ${steady.text} (issue 5: < ${budgetPct}%), whole window incl. start-up ${whole.text}; ${judgement.message}`,
    )
    expect(measured.shares.every((s) => s.steadyCpuUs > 0)).toBe(true)
    expectNoRegression(judgement, `monitor at ${intervalMs} ms`)
  })
}

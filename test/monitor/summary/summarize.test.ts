// Scripted series in, exact summaries out: per GPU, per stage, energy, idle gaps, throttling, attribution flags.
import { describe, expect, test } from 'vitest'
import type { MonitorRecord } from '../../../src/monitor/records.ts'
import { summarizeRecords } from '../../../src/monitor/summary/summarize.ts'
import { MonitorSummarySchema } from '../../../src/results/schema/index.ts'
import { header, sample } from '../support/records.ts'

const UTIL_GPU0 = [0, 0, 5, 90, 100, 100, 3, 2]

/** Two GPUs, 100 ms apart, stages load [0, 300), infer [300, 600), none [600, 800); the target asked for GPU 0. */
function scriptedRun(): MonitorRecord[] {
  const records: MonitorRecord[] = [
    header([0, 1]),
    { kind: 'stage', tMs: 0, stage: 'load' },
    { kind: 'stage', tMs: 300, stage: 'infer' },
    { kind: 'stage', tMs: 600, stage: null },
    { kind: 'target', tMs: 0, rootPid: 500, pids: [500, 501], requestedGpus: [0] },
  ]
  UTIL_GPU0.forEach((utilPct, i) => {
    const gpm =
      i >= 3 && i <= 5 ? { smUtilPct: 80, tensorUtilPct: 70, dramBwUtilPct: 10 + i, intervalMs: 100 } : undefined
    records.push(sample(0, i * 100, { utilPct, clockEventReasons: i === 4 ? 0x41 : 0x1, ...(gpm && { gpm }) }))
    records.push(sample(1, i * 100 + 1, { utilPct: 0, powerMw: 60_000 }))
  })
  records.push(
    { kind: 'energy', tMs: 0, gpu: 0, energyMj: 1_000_000 },
    { kind: 'energy', tMs: 800, gpu: 0, energyMj: 1_160_000 },
    { kind: 'energy', tMs: 0, gpu: 1, energyMj: 0 },
    { kind: 'energy', tMs: 800, gpu: 1, energyMj: 48_000 },
    {
      kind: 'driver-util',
      tMs: 500,
      gpu: 0,
      samples: [
        { tMs: 350, utilPct: 95 },
        { tMs: 450, utilPct: 97 },
      ],
    },
    { kind: 'end', tMs: 800, ticks: 8, missedTicks: 0, cpuUserUs: 1, cpuSystemUs: 1, steady: null },
  )
  return records
}

describe('per stage', () => {
  const summary = summarizeRecords(scriptedRun(), { sequenceCount: 120, stageSequenceCounts: { infer: 60 } })

  test('windows are cut at the stage changes and grouped by stage', () => {
    expect(summary.stages.map((s) => [s.stage, s.windows.map((w) => [w.startMs, w.endMs]), s.durationMs])).toEqual([
      ['load', [[0, 300]], 300],
      ['infer', [[300, 600]], 300],
      [null, [[600, 800]], 200],
    ])
  })

  test('statistics cover only the asked-for GPU; the other is listed apart', () => {
    const infer = summary.stages[1]!
    expect(infer.gpus.map((g) => g.gpu)).toEqual([0])
    expect(infer.excludedGpus.map((g) => g.gpu)).toEqual([1])
    expect(infer.gpus[0]!.metrics.utilPct).toEqual({ n: 3, mean: 290 / 3, min: 90, max: 100, p50: 100, p95: 100 })
    expect(summary.stages[0]!.gpus[0]!.metrics.utilPct).toEqual({ n: 3, mean: 5 / 3, min: 0, max: 5, p50: 0, p95: 4.5 })
  })

  test('GPM statistics come from the samples that carry a GPM reading', () => {
    const infer = summary.stages[1]!.gpus[0]!
    expect(infer.metrics.gpmSmUtilPct).toMatchObject({ n: 3, mean: 80 })
    expect(infer.metrics.gpmDramBwUtilPct).toMatchObject({ n: 3, min: 13, max: 15, p50: 14 })
    expect(summary.stages[0]!.gpus[0]!.metrics.gpmSmUtilPct).toBeNull()
  })

  test("the driver's buffered readings are summarized beside ours", () => {
    expect(summary.stages[1]!.gpus[0]!.metrics.driverUtilPct).toMatchObject({ n: 2, mean: 96 })
    expect(summary.stages[0]!.gpus[0]!.metrics.driverUtilPct).toBeNull()
  })

  test('energy: counter interpolated at the stage edges, power integral beside it, joules per sequence', () => {
    expect(summary.stages.map((s) => s.energyJ)).toEqual([60, 60, 40])
    expect(summary.stages.map((s) => s.gpus[0]!.energyFromPowerJ)).toEqual([60, 60, 40])
    expect(summary.stages[1]!.jPerSequence).toBe(1)
    expect(summary.energy).toEqual({ totalJ: 160, fromPowerJ: 160, sequenceCount: 120, jPerSequence: 160 / 120 })
  })

  test('idle gaps: the longest run below 10% utilization inside each stage', () => {
    expect(summary.stages.map((s) => s.gpus[0]!.longestIdle)).toEqual([
      { samples: 3, startMs: 0, durationMs: 300 },
      null,
      { samples: 2, startMs: 600, durationMs: 200 },
    ])
  })

  test("busy span: each stage's first busy sample to its last, per GPU; none where the GPU never worked", () => {
    // GPU 0 reads 90, 100, 100 at 300-500 ms (infer); GPU 1 never works.
    expect(summary.stages.map((s) => [s.stage, s.gpus[0]!.busySpanMs, s.excludedGpus[0]!.busySpanMs])).toEqual([
      ['load', null, null],
      ['infer', 200, null],
      [null, null, null],
    ])
  })

  test('a stored summary from before busy spans still loads (the refit reads them from its gpu.jsonl)', () => {
    const old = JSON.parse(JSON.stringify(summary))
    for (const s of old.stages) for (const g of s.gpus) delete g.busySpanMs
    expect(MonitorSummarySchema.safeParse(old).success).toBe(true)
    expect(MonitorSummarySchema.safeParse(summary).success).toBe(true)
  })

  test('throttling (HW thermal here) is counted per stage and flagged; the idle bit alone is not', () => {
    expect(summary.stages.map((s) => s.throttledSamples)).toEqual([0, 1, 0])
    expect(summary.stages[1]!.gpus[0]!.throttle).toEqual({ samples: 1, reasons: { hwThermalSlowdown: 1 } })
    expect(summary.flags.throttled).toEqual([{ gpu: 0, stage: 'infer', samples: 1 }])
  })
})

describe('per GPU over the run', () => {
  const summary = summarizeRecords(scriptedRun())

  test('every sampled GPU, with its device, whether it was asked for, peak memory and energy', () => {
    expect(summary.gpus.map((g) => [g.gpu, g.device?.name, g.requested, g.sampleCount, g.energyJ])).toEqual([
      [0, 'GPU 0', true, 8, 160],
      [1, 'GPU 1', false, 8, 48],
    ])
    expect(summary.gpus[0]!.metrics.utilPct).toMatchObject({ n: 8, min: 0, max: 100, mean: 300 / 8 })
    expect(summary.gpus[1]!.longestIdle).toEqual({ samples: 8, startMs: 1, durationMs: 799 })
  })

  test('the sampler figures from the end record are kept', () => {
    expect(summary.sampler).toEqual({ ticks: 8, missedTicks: 0, cpuUserUs: 1, cpuSystemUs: 1, steady: null })
    expect(summary.durationMs).toBe(800)
  })
})

describe('logs cut short', () => {
  test('without an end record the run lasts one interval past the last record', () => {
    const records = scriptedRun().filter((r) => r.kind !== 'end')
    expect(summarizeRecords(records).durationMs).toBe(900)
  })

  test('a lost GPU is summarized up to its loss and flagged', () => {
    const records = scriptedRun().filter((r) => !(r.kind === 'sample' && r.gpu === 1 && r.tMs > 350))
    records.push({
      kind: 'gpu-lost',
      tMs: 350,
      gpu: 1,
      error: 'nvmlDeviceGetPowerUsage (device 1) returned NVML_ERROR_GPU_IS_LOST',
    })
    const summary = summarizeRecords(records)
    expect(summary.flags.lostGpus).toEqual([1])
    expect(summary.gpus[1]!.lost).toEqual({ tMs: 350, error: expect.stringMatching(/GPU_IS_LOST/) })
    expect(summary.gpus[1]!.sampleCount).toBe(4)
  })

  test('records without a header are refused', () => {
    expect(() => summarizeRecords(scriptedRun().slice(1))).toThrow(/no header record/)
  })
})

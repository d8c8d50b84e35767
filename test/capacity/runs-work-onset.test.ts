import { describe, expect, test } from 'vitest'
import { capacityRun } from '../../src/capacity/runs.ts'
import { workSpansOf } from '../../src/engine/work-spans.ts'
import { summarizeRecords } from '../../src/monitor/summary/summarize.ts'
import type { MeasuredRun } from '../../src/results/schema/index.ts'
import {
  BUSY_HIGH_PCT,
  BUSY_LOW_PCT,
  DNABERT,
  ESM2,
  v2LogEvents,
  v2MonitorRecords,
  v2Run,
} from './support/v2-log-run.ts'

/** The fixture's run as the suite records it, its monitor summary made with the given work spans (none: samples). */
function measured(withSpans: boolean): MeasuredRun {
  const { events, progress } = v2LogEvents()
  const run = v2Run(events)
  const gpu = summarizeRecords(v2MonitorRecords(events, run), {
    ...(withSpans && { workSpans: workSpansOf(progress, run) }),
  })
  return { label: '2 GPUs, 3,750 seqs run 2', config: {}, warmup: false, run, gpu, progress }
}

const esm2Startup = (o: MeasuredRun) => capacityRun(o, 3_750, [DNABERT, ESM2])!.startup[ESM2]!

// ESM-2 on 2 x H100 read 13.5% at 6 M from a steady state counted from the GPU's first work (the model's move to it),
// where each GPU ran 60-75% busy once its batches started: the worker's start is no part of PERF-02's steady state.
describe("PERF-02's steady state on the real v2 log: from each worker's first batch", () => {
  test('from the `First batch ready` lines: what the GPUs do once their batches run, the start-up up to the later one', () => {
    const startup = esm2Startup(measured(true))
    expect(startup.steadyUtilPct).toBeGreaterThanOrEqual(BUSY_LOW_PCT)
    expect(startup.steadyUtilPct).toBeLessThanOrEqual(BUSY_HIGH_PCT)
    // The stage starts at 01:36:16; worker 1's first batch is ready at 01:37:04.517 (the log's 1 s main stamps).
    expect(startup.startupMs).toBeGreaterThan(48_000)
    expect(startup.startupMs).toBeLessThan(49_000)
  })

  test('from the samples alone (no span, as below the buffer): the first sample from which the GPU stays busy', () => {
    const startup = esm2Startup(measured(false))
    expect(startup.steadyUtilPct).toBeGreaterThanOrEqual(BUSY_LOW_PCT - 5)
    expect(startup.steadyUtilPct).toBeLessThanOrEqual(BUSY_HIGH_PCT)
    expect(startup.startupMs).toBeGreaterThan(48_000)
  })

  test('a record whose summary predates the work figures: from its batch lines where it kept them, else as before', () => {
    const o = measured(true)
    const strip = <T extends object>(g: T) => {
      const { workOnsetMs: _a, workOnsetSource: _b, workUtilPct: _c, ...rest } = g as T & Record<string, unknown>
      return rest
    }
    const gpu = { ...o.gpu!, stages: o.gpu!.stages.map((s) => ({ ...s, gpus: s.gpus.map(strip) })) }
    const old = { ...o, gpu } as unknown as MeasuredRun
    // Its batch lines bound each worker's span: the stage's busy time over it (the load's blip inside: a little high).
    const fromLines = esm2Startup(old)
    expect(fromLines.steadyUtilPct).toBeGreaterThanOrEqual(BUSY_LOW_PCT)
    expect(fromLines.steadyUtilPct).toBeLessThanOrEqual(BUSY_HIGH_PCT + 5)
    expect(fromLines.steadyFrom).toBe('work-onset')
    // Without them, the first busy sample (the model's load) is where its steady state starts: the wait dilutes it.
    const bare = esm2Startup({ ...old, progress: old.progress!.filter((p) => p.source !== undefined) })
    expect(bare.steadyUtilPct).toBeLessThan(40)
    expect(bare.startupMs).toBeLessThan(30_000)
    expect(bare.steadyFrom).toBe('first-busy')
  })
})

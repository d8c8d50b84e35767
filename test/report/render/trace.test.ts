import { describe, expect, test } from 'vitest'
import type { SampleRecord } from '../../../src/monitor/records.ts'
import { MAX_COUNTER_POINTS, type TraceEvent, traceJson } from '../../../src/report/render/trace.ts'
import type { ResultRecord } from '../../../src/results/schema/index.ts'
import { loadDemo } from '../support/demo.ts'
import { expectTrace } from '../support/formats.ts'

const demo = await loadDemo()
const scaling = demo.records.find((r) => r.id === 'scaling-reference') as ResultRecord
const parse = (text: string) => (JSON.parse(text) as { traceEvents: TraceEvent[] }).traceEvents

function sample(k: number, gpu: number): SampleRecord {
  return {
    kind: 'sample',
    tMs: k * 10.0004,
    gpu,
    stage: null,
    utilPct: k % 100,
    utilMemoryPct: null,
    memUsedBytes: 2 ** 30,
    memTotalBytes: null,
    powerMw: 300_000,
    tempC: null,
    smClockMhz: null,
    memClockMhz: null,
    clockEventReasons: null,
  }
}

describe('trace.json', () => {
  test('the demo run loads as Chrome/Perfetto trace events, one process per run', () => {
    const events = parse(traceJson(demo.records, demo.series))
    expectTrace({ traceEvents: events, displayTimeUnit: 'ms' })
    const runs = demo.records.reduce((n, r) => n + r.runs.length, 0)
    expect(events.filter((e) => e.name === 'process_name')).toHaveLength(runs)
  })

  test('times are whole microseconds, and a slice ends where its window ends (to the µs)', () => {
    const events = parse(traceJson([scaling], demo.series))
    for (const e of events) if (e.ts !== undefined) expect(Number.isInteger(e.ts)).toBe(true)
    const window = scaling.runs[0]?.gpu?.stages.find((s) => s.stage !== null)?.windows[0]
    const slice = events.find((e) => e.ph === 'X' && e.pid === 1)
    expect(slice?.ts).toBe(Math.round((window?.startMs as number) * 1000))
    expect((slice?.ts as number) + (slice?.dur as number)).toBe(Math.round((window?.endMs as number) * 1000))
  })

  test('counters are thinned to at most MAX_COUNTER_POINTS per GPU and run, in time order', () => {
    const samples = Array.from({ length: 6_000 }, (_, k) => sample(Math.floor(k / 2), k % 2))
    const run = { ...(scaling.runs[0] as ResultRecord['runs'][number]) }
    run.gpu = { ...(run.gpu as NonNullable<typeof run.gpu>), logPath: 'big.jsonl', sampledGpus: [0, 1] }
    const events = parse(traceJson([{ ...scaling, runs: [run] }], new Map([['big.jsonl', samples]])))
    for (const gpu of [0, 1]) {
      const track = events.filter((e) => e.name === `GPU ${gpu} util %`)
      expect(track.length).toBeGreaterThan(MAX_COUNTER_POINTS / 2)
      expect(track.length).toBeLessThanOrEqual(MAX_COUNTER_POINTS)
      const ts = track.map((e) => e.ts as number)
      expect(ts).toEqual([...ts].sort((a, b) => a - b))
    }
  })

  test('runs that name one monitor log get the same counter tracks, each under its own process', () => {
    const samples = Array.from({ length: 100 }, (_, k) => sample(k, 0))
    const runs = scaling.runs.slice(0, 2).map((r) => ({
      ...r,
      gpu: { ...(r.gpu as NonNullable<typeof r.gpu>), logPath: 'shared.jsonl', sampledGpus: [0] },
    }))
    const events = parse(traceJson([{ ...scaling, runs }], new Map([['shared.jsonl', samples]])))
    const track = (pid: number) =>
      events.filter((e) => e.ph === 'C' && e.pid === pid).map((e) => [e.name, e.ts, e.args])
    expect(track(1).length).toBe(100 * 3)
    expect(track(2)).toEqual(track(1))
  })

  test('a record ID with quotes, backslashes and line breaks survives as text', () => {
    const id = 'odd "id" \\ with\nbreak'
    const events = parse(traceJson([{ ...scaling, id }], new Map()))
    expect(events[0]?.args?.name).toBe(`${id} / ${scaling.runs[0]?.label}`)
  })
})

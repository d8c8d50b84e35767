// The sampling core against the fake libnvidia-ml, one tick at a time on a hand-driven clock.
import { describe, expect, test } from 'vitest'
import { EPOCH_MS, handDrivenCore, ofKind } from './support/core.ts'
import { useFake } from './support/fake.ts'

describe('fast metrics', () => {
  test('each tick records every metric of every sampled GPU, scripted values in order', () => {
    useFake({
      devices: [
        { utilGpuPct: [10, 20, 30], powerMw: [100_000, 200_000, 300_000], temperatureC: 40, clockSmMhz: 1_980 },
        { utilGpuPct: 55, clockEventReasons: 0x40 },
      ],
    })
    const { tickAt } = handDrivenCore()
    const samples = [0, 100, 200].flatMap((t) => ofKind(tickAt(t), 'sample'))
    expect(samples.filter((s) => s.gpu === 0).map((s) => [s.tMs, s.utilPct, s.powerMw])).toEqual([
      [0, 10, 100_000],
      [100, 20, 200_000],
      [200, 30, 300_000],
    ])
    expect(samples.find((s) => s.gpu === 0)).toMatchObject({ tempC: 40, smClockMhz: 1_980, stage: null })
    expect(samples.filter((s) => s.gpu === 1).map((s) => [s.utilPct, s.clockEventReasons])).toEqual([
      [55, 0x40],
      [55, 0x40],
      [55, 0x40],
    ])
  })

  test('only the selected GPUs are sampled', () => {
    useFake({ devices: [{}, {}, {}] })
    const { core, tickAt } = handDrivenCore({ gpus: [2, 0] })
    expect(core.sampledGpus).toEqual([2, 0])
    expect(ofKind(tickAt(0), 'sample').map((s) => s.gpu)).toEqual([2, 0])
  })

  test('a GPU index that does not exist is refused, naming it', () => {
    useFake({ devices: [{}] })
    expect(() => handDrivenCore({ gpus: [0, 3] })).toThrow(/GPU 3 not found; this machine has 1 GPU/)
  })

  test('an NVML error on one metric nulls that metric only and is logged with the call name', () => {
    useFake({ devices: [{ utilGpuPct: 70, powerMw: 250_000, fail: { nvmlDeviceGetPowerUsage: 999 } }] })
    const records = handDrivenCore().tickAt(0)
    expect(ofKind(records, 'sample')[0]).toMatchObject({ utilPct: 70, powerMw: null, tempC: expect.any(Number) })
    expect(ofKind(records, 'error')).toEqual([
      expect.objectContaining({ gpu: 0, metric: 'nvmlDeviceGetPowerUsage', error: expect.stringMatching(/UNKNOWN/) }),
    ])
  })
})

describe('stage stamps', () => {
  test('a sample takes the stage whose [start, next start) holds its time, even when the change arrives later', () => {
    useFake({ devices: [{}] })
    const { tickAt } = handDrivenCore()
    tickAt(0)
    // Both changes reach the worker during the tick at 100: 'load' (t 50) applies to it, 'infer' (t 105) does not.
    const at100 = tickAt(100, [
      { tMs: 50, stage: 'load' },
      { tMs: 105, stage: 'infer' },
    ])
    expect(ofKind(at100, 'sample')[0]!.stage).toBe('load')
    expect(ofKind(at100, 'stage')).toEqual([
      { kind: 'stage', tMs: 50, stage: 'load' },
      { kind: 'stage', tMs: 105, stage: 'infer' },
    ])
    expect(ofKind(tickAt(200), 'sample')[0]!.stage).toBe('infer')
    expect(ofKind(tickAt(300, [{ tMs: 250, stage: null }]), 'sample')[0]!.stage).toBeNull()
  })
})

describe('GPM', () => {
  test('pairs are taken at least 100 ms apart and attached to the sample that closes them', () => {
    useFake({ devices: [{ gpm: { 2: [80, 90, 70], 5: 60, 10: 15 } }] })
    const { tickAt } = handDrivenCore({ intervalMs: 10 })
    const withGpm = []
    for (let t = 0; t <= 300; t += 10) {
      const sample = ofKind(tickAt(t), 'sample')[0]!
      if (sample.gpm)
        withGpm.push([sample.tMs, sample.gpm.smUtilPct, sample.gpm.tensorUtilPct, sample.gpm.dramBwUtilPct])
    }
    expect(withGpm).toEqual([
      [100, 80, 60, 15],
      [200, 90, 60, 15],
      [300, 70, 60, 15],
    ])
  })

  test('a GPU without GPM records samples without it', () => {
    useFake({ devices: [{ gpmSupported: false }] })
    const { tickAt } = handDrivenCore()
    expect([0, 150, 300].map((t) => ofKind(tickAt(t), 'sample')[0]!.gpm)).toEqual([undefined, undefined, undefined])
  })
})

describe('lower-rate reads', () => {
  test('energy: every GPU at the first tick, then in staggered slots, and at once on a stage change', () => {
    useFake({ devices: [{ energyMj: [1_000, 2_000, 3_000, 4_000] }, { energyMj: 5_000 }] })
    const { tickAt } = handDrivenCore({ energyIntervalMs: 1_000 })
    const energyAt = (t: number, changes = [] as { tMs: number; stage: string }[]) =>
      ofKind(tickAt(t, changes), 'energy').map((e) => [e.gpu, e.energyMj])
    expect(energyAt(0)).toEqual([
      [0, 1_000],
      [1, 5_000],
    ])
    expect(energyAt(900)).toEqual([])
    expect(energyAt(1_000)).toEqual([[0, 2_000]])
    expect(energyAt(1_500)).toEqual([[1, 5_000]])
    expect(energyAt(1_600, [{ tMs: 1_550, stage: 'esm' }])).toEqual([
      [0, 3_000],
      [1, 5_000],
    ])
  })

  test('process lists come from every GPU, sampled or not, with /proc parentage of live PIDs', () => {
    useFake({
      devices: [{ processes: [{ pid: process.pid, usedGpuMemoryBytes: 2_000 }] }, { processes: [] }],
    })
    const { tickAt } = handDrivenCore({ gpus: [1] })
    const lists = ofKind(tickAt(0, [], true), 'processes')
    expect(lists.map((l) => l.gpu)).toEqual([0, 1])
    expect(lists[0]!.processes).toEqual([
      {
        pid: process.pid,
        usedGpuMemoryBytes: 2_000,
        ppid: process.ppid,
        pgid: expect.any(Number),
        sid: expect.any(Number),
        comm: expect.any(String),
      },
    ])
  })

  test("the driver's buffered samples are read once each and mapped onto the monitor clock", () => {
    const at = (ms: number) => (EPOCH_MS + ms) * 1000
    useFake({
      devices: [
        {
          samplesGpu: [
            { timeStampUs: at(-500), valuePct: 1 },
            { timeStampUs: at(200), valuePct: 40 },
            { timeStampUs: at(400), valuePct: 60 },
          ],
        },
      ],
    })
    const { tickAt } = handDrivenCore({ driverSamplesIntervalMs: 1_000 })
    expect(ofKind(tickAt(0), 'driver-util')).toEqual([
      {
        kind: 'driver-util',
        tMs: 0,
        gpu: 0,
        samples: [
          { tMs: 200, utilPct: 40 },
          { tMs: 400, utilPct: 60 },
        ],
      },
    ])
    expect(ofKind(tickAt(1_000), 'driver-util')).toEqual([])
  })
})

describe('a GPU lost mid-run', () => {
  test('is recorded once; the other GPUs go on being sampled', () => {
    // Tick 1 opens GPM and reads identity... the fake counts device calls: GPU 1 dies after its first few ticks.
    useFake({ devices: [{ utilGpuPct: 30 }, { utilGpuPct: 60, lostAfterCalls: 40, gpmSupported: false }] })
    const { tickAt } = handDrivenCore({ gpmMinIntervalMs: 100 })
    const records = Array.from({ length: 20 }, (_, i) => tickAt(i * 100)).flat()
    const lost = ofKind(records, 'gpu-lost')
    expect(lost).toEqual([expect.objectContaining({ gpu: 1, error: expect.stringMatching(/GPU_IS_LOST/) })])
    const samples = ofKind(records, 'sample')
    expect(samples.filter((s) => s.gpu === 0)).toHaveLength(20)
    const gpu1 = samples.filter((s) => s.gpu === 1)
    expect(gpu1.length).toBeGreaterThan(0)
    expect(gpu1.length).toBeLessThan(20)
    expect(Math.max(...gpu1.map((s) => s.tMs))).toBeLessThan(lost[0]!.tMs)
  })
})

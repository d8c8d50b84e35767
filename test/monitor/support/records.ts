// Builders for hand-written monitor logs (summary tests need exact inputs, no NVML).
import { type HeaderRecord, MONITOR_LOG_VERSION, type SampleRecord } from '../../../src/monitor/records.ts'

export function header(sampledGpus: number[], intervalMs = 100): HeaderRecord {
  return {
    kind: 'header',
    version: MONITOR_LOG_VERSION,
    startedAt: '2026-11-21T00:00:00.000Z',
    startEpochMs: 1_700_000_000_000,
    intervalMs,
    pid: 1,
    sampledGpus,
    devices: sampledGpus.map((index) => ({
      index,
      name: `GPU ${index}`,
      uuid: null,
      pciBusId: null,
      memTotalBytes: 100,
      gpmSupported: true,
    })),
  }
}

export function sample(gpu: number, tMs: number, fields: Partial<SampleRecord> = {}): SampleRecord {
  return {
    kind: 'sample',
    tMs,
    gpu,
    stage: null,
    utilPct: 0,
    utilMemoryPct: 0,
    memUsedBytes: 1_000,
    memTotalBytes: 100_000,
    powerMw: 200_000,
    tempC: 40,
    smClockMhz: 1_980,
    memClockMhz: 3_200,
    clockEventReasons: 0,
    ...fields,
  }
}

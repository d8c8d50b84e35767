/** zod schemas for the monitor's JSONL records (records.ts): what a reader of a log checks before trusting a line. */
import { z } from 'zod'
import { MONITOR_LOG_VERSION, type MonitorRecord } from './records.ts'

const num = z.number().refine(Number.isFinite, 'must be a finite number')
const nullableNum = num.nullable()
const index = z.number().int().nonnegative()

const gpm = z.object({
  smUtilPct: nullableNum,
  tensorUtilPct: nullableNum,
  dramBwUtilPct: nullableNum,
  intervalMs: num,
})

const device = z.object({
  index,
  name: z.string().nullable(),
  uuid: z.string().nullable(),
  pciBusId: z.string().nullable(),
  memTotalBytes: nullableNum,
  gpmSupported: z.boolean(),
})

const processEntry = z.object({
  pid: index,
  usedGpuMemoryBytes: nullableNum,
  ppid: nullableNum,
  pgid: nullableNum,
  sid: nullableNum,
  comm: z.string().nullable(),
})

const hostMemoryProcess = z.object({
  pid: index,
  ppid: index.nullable(),
  comm: z.string().nullable(),
  rssBytes: num,
  pssBytes: nullableNum,
})

export const monitorRecordSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('header'),
    version: z.literal(MONITOR_LOG_VERSION),
    startedAt: z.string(),
    startEpochMs: num,
    intervalMs: num,
    pid: index,
    sampledGpus: z.array(index),
    devices: z.array(device),
  }),
  z.object({
    kind: z.literal('sample'),
    tMs: num,
    gpu: index,
    stage: z.string().nullable(),
    utilPct: nullableNum,
    utilMemoryPct: nullableNum,
    memUsedBytes: nullableNum,
    memTotalBytes: nullableNum,
    powerMw: nullableNum,
    tempC: nullableNum,
    smClockMhz: nullableNum,
    memClockMhz: nullableNum,
    clockEventReasons: nullableNum,
    gpm: gpm.optional(),
  }),
  z.object({ kind: z.literal('stage'), tMs: num, stage: z.string().nullable() }),
  z.object({ kind: z.literal('energy'), tMs: num, gpu: index, energyMj: num }),
  z.object({ kind: z.literal('processes'), tMs: num, gpu: index, processes: z.array(processEntry) }),
  z.object({
    kind: z.literal('driver-util'),
    tMs: num,
    gpu: index,
    samples: z.array(z.object({ tMs: num, utilPct: num })),
  }),
  z.object({
    kind: z.literal('target'),
    tMs: num,
    rootPid: index,
    pids: z.array(index),
    requestedGpus: z.array(index).nullable(),
  }),
  z.object({
    kind: z.literal('host-memory'),
    tMs: num,
    rootPid: index,
    hostMemTotalBytes: num,
    processes: z.array(hostMemoryProcess),
  }),
  z.object({ kind: z.literal('gpu-lost'), tMs: num, gpu: index, error: z.string() }),
  z.object({ kind: z.literal('error'), tMs: num, gpu: index.nullable(), metric: z.string(), error: z.string() }),
  z.object({
    kind: z.literal('end'),
    tMs: num,
    ticks: index,
    missedTicks: index,
    cpuUserUs: num,
    cpuSystemUs: num,
    steady: z.object({ fromMs: num, cpuUs: num }).nullable(),
  }),
])

// Compile-time check that the schema and the hand-written types describe the same records.
type Parsed = z.infer<typeof monitorRecordSchema>
const _sameShape: (record: MonitorRecord) => Parsed = (record) => record
void _sameShape

import { describe, expect, test } from 'vitest'
import { parseMonitorLog } from '../../../src/monitor/log-reader.ts'
import type { HostMemoryProcess, HostMemoryRecord } from '../../../src/monitor/records.ts'
import { summarizeHostMemory } from '../../../src/monitor/summary/host-memory.ts'
import { summarizeRecords } from '../../../src/monitor/summary/summarize.ts'
import { MonitorSummarySchema } from '../../../src/results/schema/monitor-summary.ts'
import { header } from '../support/records.ts'

const GIB = 2 ** 30
const proc = (
  pid: number,
  ppid: number,
  rssGib: number,
  pssGib: number | null,
  comm = 'python',
): HostMemoryProcess => ({
  pid,
  ppid,
  comm,
  rssBytes: rssGib * GIB,
  pssBytes: pssGib === null ? null : pssGib * GIB,
})
const reading = (tMs: number, processes: HostMemoryProcess[]): HostMemoryRecord => ({
  kind: 'host-memory',
  tMs,
  rootPid: 10,
  hostMemTotalBytes: 64 * GIB,
  processes,
})
const noStage = () => null

describe('summarizeHostMemory', () => {
  test('between PSS reads a process counts as its last PSS plus its VmRSS growth since', () => {
    // A parent and a forked worker sharing 8 GiB: PSS read at t=0 only; both then grow by 2 GiB of their own.
    const summary = summarizeHostMemory(
      [
        reading(0, [proc(10, 1, 10, 6), proc(11, 10, 8, 4)]),
        reading(1_000, [proc(10, 1, 12, null), proc(11, 10, 10, null)]),
      ],
      (tMs) => (tMs >= 500 ? 'ESM-2' : null),
    )!
    // Each grew by pages of its own: 6 + 2 and 4 + 2 (a ratio would have counted 12 x 0.6 + 10 x 0.5 = 12.2).
    expect(summary.peakTreeBytes).toBe(14 * GIB)
    expect(summary).toMatchObject({ peakTreeAtMs: 1_000, peakTreeStage: 'ESM-2', peakTreeFromPss: true })
    expect(summary.peakProcessBytes).toBe(12 * GIB)
    expect(summary.peakProcess).toEqual({ pid: 10, comm: 'python', role: 'python (root)' })
  })

  test('a process with no PSS read yet counts whole, and the peak says so', () => {
    const summary = summarizeHostMemory([reading(0, [proc(10, 1, 2, 1), proc(11, 10, 2, null)])], noStage)!
    expect(summary.peakTreeBytes).toBe(3 * GIB)
    expect(summary.peakTreeFromPss).toBe(false)
  })

  test('roles by name and depth from the root; a process whose parent chain misses the root is detached', () => {
    const summary = summarizeHostMemory(
      [
        reading(0, [
          proc(10, 1, 1, 1, 'bash'),
          proc(20, 10, 30, 30),
          proc(21, 10, 28, 28),
          proc(30, 20, 31, 2, 'pt_data_worker'),
          proc(40, 999, 1, 1, 'daemon'),
          proc(50, 30, 1, 1, 'sh'),
        ]),
      ],
      noStage,
    )!
    const byRole = Object.fromEntries(summary.roles.map((r) => [r.role, r]))
    expect(Object.keys(byRole).sort()).toEqual([
      'bash (root)',
      'daemon (detached)',
      'pt_data_worker (grandchild)',
      'python (child)',
      'sh (depth 3)',
    ])
    expect(byRole['python (child)']).toEqual({
      role: 'python (child)',
      processes: 2,
      peakProcessBytes: 30 * GIB,
      peakTotalBytes: 58 * GIB,
    })
    expect(summary.peakProcess?.role).toBe('pt_data_worker (grandchild)')
  })

  test('no readings: null; readings of a tree already gone: zero, no peak process', () => {
    expect(summarizeHostMemory([], noStage)).toBeNull()
    expect(summarizeHostMemory([reading(0, [])], noStage)).toMatchObject({ peakTreeBytes: 0, peakProcess: null })
  })
})

describe('logs and records from before host memory was sampled', () => {
  test('a log without host-memory records summarizes with hostMemory null', () => {
    const log = parseMonitorLog(`${JSON.stringify(header([]))}\n`)
    expect(summarizeRecords(log.records).hostMemory).toBeNull()
  })

  test('a stored summary without the field still loads; one with it loads it', () => {
    const summary = summarizeRecords([header([]), reading(5, [proc(10, 1, 1, 1)])])
    const { hostMemory, ...older } = summary
    expect(MonitorSummarySchema.parse(JSON.parse(JSON.stringify(older))).hostMemory).toBeUndefined()
    expect(MonitorSummarySchema.parse(JSON.parse(JSON.stringify(summary))).hostMemory).toEqual(hostMemory)
  })
})

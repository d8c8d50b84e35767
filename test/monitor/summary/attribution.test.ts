// Attribution with real processes: a detached target whose grandchild is in its session, and this test process as
// the foreign one. The fake lists those PIDs as GPU compute processes; the sampler reads their /proc parentage.
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { afterEach, expect, test } from 'vitest'
import type { MonitorRecord } from '../../../src/monitor/records.ts'
import { summarizeRecords } from '../../../src/monitor/summary/summarize.ts'
import { handDrivenCore } from '../support/core.ts'
import { sleep, useFake } from '../support/fake.ts'
import { header } from '../support/records.ts'

const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) if (child.pid) process.kill(-child.pid, 'SIGKILL')
})

/** A detached `sh` (its own session) running a `sleep` grandchild; returns both PIDs. */
async function startTarget(): Promise<{ rootPid: number; grandchildPid: number }> {
  const child = spawn('sh', ['-c', 'sleep 30 & wait'], { detached: true, stdio: 'ignore' })
  children.push(child)
  const rootPid = child.pid!
  for (let i = 0; i < 100; i++) {
    const text = readFileSync(`/proc/${rootPid}/task/${rootPid}/children`, 'utf8').trim()
    if (text) return { rootPid, grandchildPid: Number(text.split(' ')[0]) }
    await sleep(20)
  }
  throw new Error('target never started its grandchild')
}

test('target processes (tree PIDs and same session) are attributed; anything else on a GPU is foreign', async () => {
  const { rootPid, grandchildPid } = await startTarget()
  useFake({
    devices: [
      {
        processes: [
          { pid: rootPid, usedGpuMemoryBytes: 3_000 },
          { pid: process.pid, usedGpuMemoryBytes: 500 },
        ],
      },
      { processes: [{ pid: grandchildPid, usedGpuMemoryBytes: 7_000 }] },
      { processes: [] },
    ],
  })
  const { tickAt } = handDrivenCore()
  const records: MonitorRecord[] = [
    header([0, 1, 2]),
    // Only the root is in the tracked tree: the grandchild is caught by its session id from /proc.
    { kind: 'target', tMs: 0, rootPid, pids: [rootPid], requestedGpus: [0, 2] },
    ...tickAt(0, [], true),
    ...tickAt(500, [], true),
  ]
  const summary = summarizeRecords(records)
  const attribution = summary.attribution
  if (attribution.state !== 'attributed') throw new Error('expected attribution')
  expect(
    attribution.gpus.map((g) => [g.gpu, g.targetPresent, g.targetPeakMemBytes, g.target.map((p) => p.pid)]),
  ).toEqual([
    [0, true, 3_000, [rootPid]],
    [1, true, 7_000, [grandchildPid]],
    [2, false, null, []],
  ])
  expect(attribution.gpusUsed).toEqual([0, 1])
  expect(summary.flags.unexpectedGpus).toEqual([1])
  expect(summary.flags.idleRequestedGpus).toEqual([2])
  expect(attribution.foreignProcesses).toEqual([
    {
      gpu: 0,
      pid: process.pid,
      comm: expect.any(String),
      peakMemBytes: 500,
      firstSeenMs: expect.any(Number),
      lastSeenMs: expect.any(Number),
    },
  ])
  expect(summary.flags.foreignProcesses).toBe(1)
})

test('without a target every process is listed and nothing is flagged', () => {
  useFake({ devices: [{ processes: [{ pid: process.pid, usedGpuMemoryBytes: 500 }] }] })
  const { tickAt } = handDrivenCore()
  const summary = summarizeRecords([header([0]), ...tickAt(0, [], true)])
  expect(summary.attribution).toEqual({
    state: 'no-target',
    gpus: [
      expect.objectContaining({
        gpu: 0,
        targetPresent: false,
        foreign: [expect.objectContaining({ pid: process.pid })],
      }),
    ],
  })
  expect(summary.flags).toMatchObject({ unexpectedGpus: [], idleRequestedGpus: [], foreignProcesses: 0 })
})

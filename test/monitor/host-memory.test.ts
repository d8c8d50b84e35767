// Host memory of a real process tree, end to end: the real runner runs bash -> python (fills SHARED_MIB) -> a fork()ed
// python (shares those pages copy-on-write, fills OWN_MIB more), and the monitor (real worker thread, real addon, the
// fake libnvidia-ml with no GPU at all) samples the tree the runner hands it. Nothing about memory is scripted.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { parseMonitorLog } from '../../src/monitor/log-reader.ts'
import { GpuMonitor } from '../../src/monitor/monitor.ts'
import type { HostMemoryRecord } from '../../src/monitor/records.ts'
import { runTarget } from '../../src/pipeline/runner.ts'
import { useWorkdir } from '../pipeline/support/fake-profile.ts'
import { scriptProfile } from '../pipeline/support/script-profile.ts'
import { ADDON_PATH, tempLogPath, useFake } from './support/fake.ts'

const MIB = 2 ** 20
const SHARED_MIB = 160
const OWN_MIB = 96
// A Python interpreter's own resident set is ~10 MiB here, bash's ~4: what the tolerance allows beyond the buffers.
const BASELINE_ALLOWANCE_MIB = 48
const TREE = fileURLToPath(new URL('./support/memory-tree.py', import.meta.url))

const work = useWorkdir({ orphans: false })

async function monitorTree(holdS: number) {
  useFake({ devices: [] })
  const started = await GpuMonitor.start({ addonPath: ADDON_PATH, logPath: tempLogPath(), hostMemoryIntervalMs: 200 })
  if (started.state !== 'started') throw new Error(`monitor did not start: ${started.reason}`)
  const monitor = started.monitor
  const record = await runTarget(scriptProfile(`python3 ${TREE} ${SHARED_MIB} ${OWN_MIB} ${holdS} && $NOOP "$@"`), {
    input: work.input,
    outputDir: work.outputDir,
    pollIntervalMs: 50,
    onSpawn: (tree) => monitor.attachTarget(tree),
  })
  const stopped = await monitor.stop()
  if (stopped.state !== 'completed') throw new Error(stopped.error)
  const printed = readFileSync(record.logPath!, 'utf8')
  const rssOf = (who: string) => Number(new RegExp(`${who} rss_kib=(\\d+)`).exec(printed)?.[1]) * 1024
  return { record, stopped, rssOf }
}

describe('host memory of the target tree, sampled without a GPU', () => {
  test('the tree total counts pages shared across fork() once; the largest process is the grandchild', async () => {
    const { record, stopped, rssOf } = await monitorTree(1.5)
    expect(record.exitClass).toBe('completed')
    const host = stopped.summary.hostMemory!
    expect(host).toBeTruthy()
    const buffers = (SHARED_MIB + OWN_MIB) * MIB
    const allowance = BASELINE_ALLOWANCE_MIB * MIB
    // The grandchild maps the shared buffer and its own: the largest VmRSS, as it printed it itself (+-5%).
    expect(host.peakProcess?.role).toMatch(/\(grandchild\)$/)
    expect(host.peakProcessBytes).toBeGreaterThanOrEqual(buffers)
    expect(host.peakProcessBytes).toBeLessThan(buffers + allowance)
    expect(Math.abs(host.peakProcessBytes / rssOf('grandchild') - 1)).toBeLessThan(0.05)
    const child = host.roles.find((r) => /^python[\d.]* \(child\)$/.test(r.role))!
    expect(Math.abs(child.peakProcessBytes / rssOf('child') - 1)).toBeLessThan(0.05)
    // Each buffer once: VmRSS summed would count the shared one twice (>= 2 x SHARED + OWN).
    expect(host.peakTreeFromPss).toBe(true)
    expect(host.peakTreeBytes).toBeGreaterThanOrEqual(buffers)
    expect(host.peakTreeBytes).toBeLessThan(buffers + allowance)
    expect(host.roles.find((r) => r.role.endsWith('(root)'))?.processes).toBe(1)
    expect(host.hostMemTotalBytes).toBeGreaterThan(buffers)
  })

  test('the log holds one host-memory record a round, each listing only live processes of the tree', async () => {
    const { record, stopped } = await monitorTree(0.6)
    const log = parseMonitorLog(readFileSync(stopped.logPath, 'utf8'))
    const readings = log.records.filter((r): r is HostMemoryRecord => r.kind === 'host-memory')
    // ~1 s of run at 200 ms a round, plus the last reading at stop (a loaded 2-core box takes fewer: at least 3).
    expect(readings.length).toBeGreaterThanOrEqual(3)
    expect(stopped.summary.hostMemory?.readings).toBe(readings.length)
    for (const reading of readings) {
      expect(reading.rootPid).toBe(record.pids[0])
      for (const p of reading.processes) expect(record.pids).toContain(p.pid)
    }
    // The tree is gone when the monitor stops: its last reading is empty.
    expect(readings.at(-1)?.processes).toEqual([])
  })
})

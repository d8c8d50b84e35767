import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { afterEach, describe, expect, test } from 'vitest'
import { readProcStat } from '../../src/pipeline/proc.ts'
import { runMarker, trackProcessTree } from '../../src/pipeline/process-tree.ts'
import { terminateTree } from '../../src/pipeline/terminate.ts'

// A root that starts one child in its group and one that leaves the session, then waits.
const SCRIPT = 'sleep 30 & setsid sleep 31 & echo started; wait'
let roots: number[] = []
afterEach(() => {
  for (const pid of roots) {
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {}
  }
  roots = []
})

async function startTree() {
  const child = spawn('/bin/sh', ['-c', SCRIPT], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] })
  roots.push(child.pid!)
  await once(child.stdout, 'data')
  await new Promise((r) => setTimeout(r, 100))
  return child
}

describe('trackProcessTree', () => {
  test('finds the children of the root, in and out of its group', async () => {
    const child = await startTree()
    const tree = trackProcessTree(child.pid!)
    tree.poll()
    expect(tree.pids()[0]).toBe(child.pid)
    const comms = tree
      .survivors()
      .map((s) => s.comm)
      .sort()
    expect(comms).toEqual(['sh', 'sleep', 'sleep'])
    await terminateTree(tree, 500)
  })

  test('terminateTree SIGTERMs the group and the escapee, and verifies nothing is left', async () => {
    const child = await startTree()
    const tree = trackProcessTree(child.pid!)
    tree.poll()
    const escapee = tree.survivors().find((s) => s.pgid !== child.pid)!
    const result = await terminateTree(tree, 1_000)
    expect(result).toEqual({ signalsSent: ['SIGTERM'], escapees: [escapee.pid], survivors: [] })
    const stat = readProcStat(escapee.pid)
    expect(stat === null || stat.state === 'Z').toBe(true)
  })

  test('terminateTree sends nothing to a tree that is already gone', async () => {
    const child = spawn('/bin/true', { detached: true })
    const tree = trackProcessTree(child.pid!)
    await once(child, 'exit')
    expect(await terminateTree(tree, 100)).toEqual({ signalsSent: [], escapees: [], survivors: [] })
  })

  test('a daemon that left no link (double fork, setsid, before any poll) is found by the marker only', async () => {
    const marker = runMarker()
    // Outside the names a nested harness checks (VIRNUCPRO_BENCH_*) or a Slurm campaign passes on (VIRNUCPRO_*).
    expect(marker).toMatch(/^VNPBENCH_RUN_[0-9a-f]{16}$/)
    const env = { ...process.env, [marker]: '1' }
    const script = '(setsid sleep 32 </dev/null >/dev/null 2>&1 &); sleep 0.2; echo started; wait'
    const spawnRoot = () =>
      spawn('/bin/sh', ['-c', script], { detached: true, env, stdio: ['ignore', 'pipe', 'ignore'] })
    const child = spawnRoot()
    roots.push(child.pid!)
    const withMarker = trackProcessTree(child.pid!, marker)
    const withoutMarker = trackProcessTree(child.pid!)
    await once(child.stdout, 'data')
    const daemon = withMarker.survivors().find((s) => s.comm === 'sleep')
    expect(daemon?.sid).toBe(daemon?.pid)
    expect(withoutMarker.survivors().map((s) => s.pid)).not.toContain(daemon?.pid)
    expect(withMarker.pids()).toContain(daemon?.pid)
    expect(await terminateTree(withMarker, 500)).toMatchObject({ escapees: [daemon?.pid], survivors: [] })
  })
})

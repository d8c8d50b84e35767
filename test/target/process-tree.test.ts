import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { afterEach, describe, expect, test } from 'vitest'
import { readProcStat } from '../../src/target/proc.ts'
import { trackProcessTree } from '../../src/target/process-tree.ts'
import { terminateTree } from '../../src/target/terminate.ts'

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
})

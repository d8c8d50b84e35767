import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, test } from 'vitest'
import { readProcStat } from '../../src/pipeline/proc.ts'
import { runMarker } from '../../src/pipeline/process-tree.ts'
import { waitFor } from '../support/wait-for.ts'

const OWNER = fileURLToPath(new URL('./fakes/watchdog-owner.ts', import.meta.url))
const started: number[] = []
afterEach(() => {
  for (const pid of started.splice(0))
    try {
      process.kill(pid, 'SIGKILL')
    } catch {}
})

const alive = (pid: number) => {
  const stat = readProcStat(pid)
  return stat !== null && stat.state !== 'Z'
}

describe('the watchdog, when the harness is killed', () => {
  test('ends the group and every process that carries the run marker, though no poll ever named it', async () => {
    const marker = runMarker()
    const group = spawn('sleep', ['600'], { detached: true, stdio: 'ignore' })
    // A process of the run in a session of its own, never named to the watchdog: found only by its marker.
    const daemon = spawn('setsid', ['sleep', '601'], { env: { ...process.env, [marker]: '1' }, stdio: 'ignore' })
    started.push(group.pid!, daemon.pid!)
    const owner = spawn(process.execPath, [OWNER, String(group.pid), marker], { stdio: ['ignore', 'pipe', 'inherit'] })
    started.push(owner.pid!)
    await once(owner.stdout, 'data')
    owner.kill('SIGKILL')
    await once(owner, 'exit')
    expect(await waitFor(() => !alive(group.pid!) && !alive(daemon.pid!), 3_000)).toBe(true)
  })
})

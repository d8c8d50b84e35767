import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { liveRunCount } from '../../src/pipeline/live-runs.ts'
import { type RunTargetOptions, runTarget } from '../../src/pipeline/runner.ts'
import { waitFor } from '../support/wait-for.ts'
import { fakeProfile, processesWithTag, useWorkdir } from './support/fake-profile.ts'

const work = useWorkdir({ orphans: false })

function run(fake: string[], more: Partial<RunTargetOptions> = {}) {
  return runTarget(fakeProfile(), {
    input: work.input,
    outputDir: work.outputDir,
    env: { FAKE_RUN_TAG: work.tag },
    graceMs: 500,
    pollIntervalMs: 50,
    extraArgs: fake.flatMap((f) => ['--fake', f]),
    ...more,
  })
}

describe('runTarget cleanup', () => {
  test('a hang ends as timeout after SIGTERM, with no survivor in /proc', async () => {
    const record = await run(['hang-at=3'], { timeoutMs: 800 })
    expect(record).toMatchObject({ exitClass: 'timeout', reason: 'timed out after 800 ms', signal: null })
    expect(record.cleanup).toMatchObject({ signalsSent: ['SIGTERM'], survivors: [] })
    expect(processesWithTag(work.tag)).toEqual([])
    expect(liveRunCount()).toBe(0)
  })

  test('a hang that ignores SIGTERM is SIGKILLed after the grace period', async () => {
    const record = await run(['hang-at=2', 'ignore-term'], { timeoutMs: 500, graceMs: 300 })
    expect(record.exitClass).toBe('timeout')
    expect(record.cleanup?.signalsSent).toEqual(['SIGTERM', 'SIGKILL'])
    expect(processesWithTag(work.tag)).toEqual([])
  })

  test('children that left the group or the session are found and killed too', async () => {
    const record = await run(['hang-at=2', 'orphan', 'setsid-child'], { timeoutMs: 1_000 })
    expect(record.exitClass).toBe('timeout')
    expect(record.pids.length).toBeGreaterThanOrEqual(3)
    expect(record.cleanup?.escapees).toHaveLength(1)
    expect(processesWithTag(work.tag)).toEqual([])
  })

  test('orphans left by a run that exits on its own are swept', async () => {
    const record = await run(['orphan'])
    expect(record.exitClass).toBe('completed')
    expect(record.cleanup?.signalsSent).toEqual(['SIGTERM'])
    expect(processesWithTag(work.tag)).toEqual([])
  })

  test('an abort mid-stage ends the run and leaves nothing running', async () => {
    const controller = new AbortController()
    const record = await run(['hang-at=4', 'setsid-child'], {
      abortSignal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'stage-start' && e.index === 4) setTimeout(() => controller.abort(), 200)
      },
    })
    expect(record).toMatchObject({ exitClass: 'failed', reason: 'aborted by the caller' })
    expect(record.stages.at(-1)).toMatchObject({ index: 4, endMs: null })
    expect(processesWithTag(work.tag)).toEqual([])
  })
})

const INTERRUPTED_RUN = fileURLToPath(new URL('./fakes/interrupted-run.ts', import.meta.url))

async function startInterruptedRun(): Promise<ReturnType<typeof spawn>> {
  const child = spawn(process.execPath, [INTERRUPTED_RUN, work.input, work.outputDir, work.tag], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let out = ''
  child.stdout.on('data', (d: Buffer) => {
    out += d
  })
  const ready = await waitFor(() => out.includes('READY') && processesWithTag(work.tag).length >= 3, 10_000)
  if (!ready) throw new Error(`interrupted-run never became ready: ${out}`)
  await new Promise((r) => setTimeout(r, 200)) // let the tree poll (50 ms) report the escapee to the watchdog
  return child
}

describe('when the test process itself is interrupted', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    test(`${signal} to the test process kills the run's whole tree, then the process dies of ${signal}`, async () => {
      const child = await startInterruptedRun()
      child.kill(signal)
      const [code, sig] = await once(child, 'exit')
      expect([code, sig]).toEqual([null, signal])
      expect(processesWithTag(work.tag)).toEqual([])
    })

  test('SIGKILL of the test process: the watchdog ends the tree within the grace period', async () => {
    const child = await startInterruptedRun()
    child.kill('SIGKILL')
    await once(child, 'exit')
    expect(await waitFor(() => processesWithTag(work.tag).length === 0, 3_000)).toBe(true)
  })
})

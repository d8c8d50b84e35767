// The shared-run cache with real runs of the reference pipeline on the CPU (tiny scale, monitor off): a second request
// of the same measurement is a hit; a cache whose runs' logs are gone, or whose file is cut short, is measured again,
// with one line on stderr saying which file and why, and never throws.
import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test, vi } from 'vitest'
import { DEFAULT_REPETITION_POLICY } from '../../src/measure/index.ts'
import { type MeasureOptions, measureConfiguration } from '../../src/suites/measure-configuration.ts'
import { referenceProfile } from '../../src/target/profiles.ts'
import { referencePipelineOnCpu } from '../support/reference-pipeline.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'
import { cpuConfig, tinyInput } from './support/cpu-suite.ts'

const ready = await referencePipelineOnCpu()

async function options(): Promise<MeasureOptions> {
  const root = tempDirUntilFileEnd('run-cache-test-')
  return {
    profile: referenceProfile,
    input: await tinyInput(5),
    workDir: join(root, 'work'),
    cacheDir: join(root, 'runs-cache'),
    monitor: null,
    policy: { ...DEFAULT_REPETITION_POLICY, warmupRuns: 0, minRuns: 1, maxRuns: 1 },
    timeoutMs: 120_000,
  }
}

/** Runs `run` with stderr captured; returns its result and what it wrote there. */
async function withStderr<T>(run: () => Promise<T>): Promise<{ result: T; stderr: string }> {
  const chunks: string[] = []
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    chunks.push(String(chunk))
    return true
  })
  try {
    return { result: await run(), stderr: chunks.join('') }
  } finally {
    spy.mockRestore()
  }
}

describe.skipIf(ready.state !== 'ready')('shared-run cache', () => {
  test('the same measurement twice is one set of runs', async () => {
    const o = await options()
    const first = await measureConfiguration(cpuConfig('cpu tiny'), o)
    const second = await measureConfiguration(cpuConfig('cpu tiny'), o)
    expect(first.fromCache).toBe(false)
    expect(second.fromCache).toBe(true)
    expect(second.observations.map((x) => x.measured.run.startedAt)).toEqual(
      first.observations.map((x) => x.measured.run.startedAt),
    )
  })

  test('a cache whose run log is gone is measured again, and says which file', async () => {
    const o = await options()
    const first = await measureConfiguration(cpuConfig('cpu tiny'), o)
    const log = first.observations[0]!.measured.run.logPath!
    rmSync(log)
    const { result: again, stderr } = await withStderr(() => measureConfiguration(cpuConfig('cpu tiny'), o))
    expect(again.fromCache).toBe(false)
    expect(again.observations[0]!.measured.run.exitClass).toBe('completed')
    expect(stderr).toContain(`${log} is gone; measuring again`)
  })

  test('the same configuration under two policies keeps two sets of run logs', async () => {
    const o = await options()
    const once = await measureConfiguration(cpuConfig('cpu tiny'), o)
    const twice = await measureConfiguration(cpuConfig('cpu tiny'), {
      ...o,
      policy: { ...o.policy!, minRuns: 2, maxRuns: 2 },
    })
    const onceLog = once.observations[0]!.measured.run.logPath!
    // Both measurements label their first run "cpu tiny run 1"; each keeps its own log, not the other's.
    expect(twice.observations[0]!.measured.run.logPath).not.toBe(onceLog)
    const again = await measureConfiguration(cpuConfig('cpu tiny'), o)
    expect(again.fromCache).toBe(true)
    expect(statSync(onceLog).mtimeMs).toBeLessThan(Date.parse(twice.observations[0]!.measured.run.startedAt))
  })

  test('a cache file cut short is measured again, not thrown', async () => {
    const o = await options()
    await measureConfiguration(cpuConfig('cpu tiny'), o)
    const [file] = readdirSync(o.cacheDir!)
    writeFileSync(join(o.cacheDir!, file!), '[{"config":')
    const { result: again, stderr } = await withStderr(() => measureConfiguration(cpuConfig('cpu tiny'), o))
    expect(again.fromCache).toBe(false)
    expect(stderr).toMatch(/run cache .*: unreadable \(.*\); measuring again/)
  })
})

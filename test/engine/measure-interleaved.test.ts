// Interleaved arms on their own inputs, with real runs of the reference pipeline on the CPU (tiny scale, monitor
// off): the projection check measures a subset and its full input this way, so that drift falls on both.
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { measureInterleaved } from '../../src/engine/measure-configuration.ts'
import { DEFAULT_REPETITION_POLICY } from '../../src/measure/index.ts'
import { referenceProfile } from '../../src/pipeline/profiles.ts'
import { cpuConfig, tinyInput } from '../suites/support/cpu-suite.ts'
import { referencePipelineOnCpu } from '../support/reference-pipeline.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const ready = await referencePipelineOnCpu()

describe.skipIf(ready.state !== 'ready')('measureInterleaved', () => {
  test('runs the arms in turn, warm-ups first, each on its own input; the second request reuses the kept runs', async () => {
    const root = tempDirUntilFileEnd('interleaved-test-')
    const arms = [
      { config: cpuConfig('subset'), input: await tinyInput(4) },
      { config: cpuConfig('full'), input: await tinyInput(8) },
    ]
    const options = {
      profile: referenceProfile,
      workDir: join(root, 'work'),
      monitor: null,
      policy: { ...DEFAULT_REPETITION_POLICY, warmupRuns: 1, minRuns: 1, maxRuns: 1 },
      timeoutMs: 120_000,
    }
    const [subset, full] = await measureInterleaved(arms, options)
    const order = [...subset!.observations, ...full!.observations]
      .sort((a, b) => Date.parse(a.measured.run.startedAt) - Date.parse(b.measured.run.startedAt))
      .map((o) => o.measured.label)
    expect(order).toEqual(['subset warm-up 1', 'full warm-up 1', 'subset run 2', 'full run 2'])
    for (const [m, sequences] of [
      [subset!, 4],
      [full!, 8],
    ] as const) {
      expect(m.stop).not.toBe('run-failed')
      for (const o of m.observations) expect(o.measured.run.summary?.sequencesProcessed).toBe(sequences)
    }
    // Each arm's logs in its own folder (configuration and input make the measurement).
    expect(subset!.observations[1]!.measured.run.logPath).not.toBe(full!.observations[1]!.measured.run.logPath)
    const again = await measureInterleaved(arms, options)
    expect(again.map((m) => m.reusedRuns)).toEqual([2, 2])
    expect(again[1]!.observations.map((o) => o.measured.run.startedAt)).toEqual(
      full!.observations.map((o) => o.measured.run.startedAt),
    )
    await expect(measureInterleaved([arms[0]!, { ...arms[1]!, config: cpuConfig('subset') }], options)).rejects.toThrow(
      'arm labels must be unique: subset, subset',
    )
  })
})

// Issue 56: what ran is read from the pipeline's own log, never assumed from the arguments. The unmodified VirNucPro's
// logs (test/fixtures/virnucpro/), replayed by a real process, through the runner: a run whose log names the
// architecture asked for completes and keeps the line; one whose log names another is a failed run, said in one line
// with the log's line; one asked nothing is not checked.
import { describe, expect, test } from 'vitest'
import { architectureProblem } from '../../src/pipeline/architecture-check.ts'
import type { Architecture } from '../../src/pipeline/architecture-line.ts'
import { architectureOf } from '../../src/pipeline/architecture-line.ts'
import { runTarget } from '../../src/pipeline/runner.ts'
import { RunRecordSchema } from '../../src/results/schema/run-record.ts'
import { useWorkdir } from './support/fake-profile.ts'
import { type FixtureRun, replayEnv, replayProfile } from './support/replay-profile.ts'

const work = useWorkdir()
// The replays compressed far: only the lines matter here.
const SPEEDUP = 400

const replay = (run: FixtureRun, architecture?: Architecture) =>
  runTarget(replayProfile(), {
    input: work.input,
    outputDir: work.outputDir,
    env: { ...replayEnv(run, SPEEDUP), FAKE_RUN_TAG: work.tag },
    graceMs: 500,
    pollIntervalMs: 50,
    ...(architecture && { architecture }),
  })

describe('the architecture a run ran, from its log', () => {
  test('the lines VirNucPro logs, and nothing else', () => {
    expect(architectureOf('Architecture: v2.0 hybrid')).toEqual({
      architecture: 'v2.0',
      line: 'Architecture: v2.0 hybrid',
    })
    expect(architectureOf('Architecture: v1.0 (--v1-fallback, all stages use legacy multi-worker)')?.architecture).toBe(
      'v1.0',
    )
    for (const other of ['  ESM-2 embedding: v2.0 (async DataLoader + sequence packing)', 'Architecture:', 'v2.0'])
      expect(architectureOf(other)).toBeNull()
    expect(architectureProblem(undefined, null)).toBeNull()
    expect(architectureProblem('v2.0', null)).toMatch(/names none/)
  })

  test('v1.0 asked, v1.0 logged: completed, the line kept in the record', { timeout: 60_000 }, async () => {
    const record = await replay('v1-1gpu', 'v1.0')
    expect(record.exitClass, record.reason ?? '').toBe('completed')
    expect(record.architecture).toEqual({
      architecture: 'v1.0',
      line: 'Architecture: v1.0 (single-GPU or non-parallel mode)',
    })
    expect(() => RunRecordSchema.parse(record)).not.toThrow()
  })

  test('v2.0 asked, v1.0 logged (`--gpus 0` without --parallel): a failed run quoting the log', {
    timeout: 60_000,
  }, async () => {
    const record = await replay('v1-1gpu', 'v2.0')
    expect(record.exitClass).toBe('failed')
    expect(record.reason).toBe(
      'asked for the v2.0 architecture, but the pipeline ran v1.0: its log says "Architecture: v1.0 (single-GPU or non-parallel mode)"',
    )
  })

  test('v2.0 asked on 2 GPUs, v2.0 logged: completed; nothing asked: not checked', { timeout: 60_000 }, async () => {
    expect((await replay('v2-2gpu', 'v2.0')).exitClass).toBe('completed')
    const unchecked = await replay('v1-1gpu')
    expect(unchecked.exitClass).toBe('completed')
    expect(unchecked.architecture?.architecture).toBe('v1.0')
  })
})

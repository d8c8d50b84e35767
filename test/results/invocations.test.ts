import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadReportInput } from '../../src/report/load.ts'
import {
  type BenchmarkTaskResult,
  combinedOutcome,
  INVOCATIONS_DIR,
  type Invocation,
  readInvocations,
  storeInvocation,
} from '../../src/results/invocations.ts'
import { SCALING_RUN_DIR } from '../history/support/fixtures.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const root = tempDirUntilFileEnd('invocations-')
let count = 0
const freshDir = () => join(root, `run-${++count}`)

const bench: BenchmarkTaskResult = {
  name: 'pipeline > reference, 1 GPU',
  project: 'gpu (bench)',
  latencyMs: { mean: 41_000, p50: 40_900, p99: 42_100, min: 40_500, max: 42_200, sd: 600, rme: 1.2 },
  samples: 3,
  opsPerS: 0.0244,
}
const at = (minute: number) => new Date(Date.UTC(2026, 10, 25, 2, minute)).toISOString()

describe('invocations beside the records', () => {
  test('each invocation is stored once, never over another (same time, same process), read back oldest first', async () => {
    const dir = freshDir()
    await storeInvocation(dir, { finishedAt: at(30), outcome: { state: 'passed' }, benchmarks: [bench] })
    await storeInvocation(dir, { finishedAt: at(10), outcome: { state: 'passed' }, benchmarks: [] })
    await storeInvocation(dir, { finishedAt: at(10), outcome: { state: 'passed' }, benchmarks: [] })
    expect(readdirSync(join(dir, INVOCATIONS_DIR))).toHaveLength(3)
    const { invocations, invalid } = await readInvocations(dir)
    expect(invalid).toEqual([])
    expect(invocations.map((i) => i.finishedAt)).toEqual([at(10), at(10), at(30)])
    expect(invocations[2]!.benchmarks).toEqual([bench])
  })

  test('a file that is not an invocation is named with why, the others read; no directory reads as none', async () => {
    const dir = freshDir()
    await storeInvocation(dir, { finishedAt: at(1), outcome: { state: 'passed' }, benchmarks: [] })
    writeFileSync(join(dir, INVOCATIONS_DIR, 'cut.json'), '{"schemaVersion": 1, "finish')
    writeFileSync(join(dir, INVOCATIONS_DIR, 'other.json'), '{"schemaVersion": 2}')
    const { invocations, invalid } = await readInvocations(dir)
    expect(invocations).toHaveLength(1)
    expect(invalid.map((i) => i.file.split('/').at(-1))).toEqual(['cut.json', 'other.json'])
    expect(invalid[1]!.reason).toMatch(/^schemaVersion: /)
    expect(await readInvocations(freshDir())).toEqual({ invocations: [], invalid: [] })
  })

  test('together: failed when one failed (with its note), interrupted next, passed when all passed, unknown for none', () => {
    const of = (...outcomes: Invocation['outcome'][]) =>
      combinedOutcome(outcomes.map((outcome, i) => ({ schemaVersion: 1, finishedAt: at(i), outcome, benchmarks: [] })))
    const failed = { state: 'failed', note: 'some tests failed (0 unhandled errors)' } as const
    const interrupted = { state: 'interrupted', note: 'the vitest run was interrupted' } as const
    expect(of({ state: 'passed' }, failed, interrupted)).toEqual({
      state: 'failed',
      note: 'rebuilt from stored records: 1 of 3 vitest invocation(s) failed: some tests failed (0 unhandled errors)',
    })
    // A campaign's tasks often end alike: each note once, counted.
    const other = { state: 'failed', note: '2 unhandled errors' } as const
    expect(of(failed, other, failed, failed)).toEqual({
      state: 'failed',
      note: 'rebuilt from stored records: 4 of 4 vitest invocation(s) failed: some tests failed (0 unhandled errors) (3 invocations); 2 unhandled errors',
    })
    expect(of({ state: 'passed' }, interrupted).state).toBe('interrupted')
    // A run stopped by a time limit and continued to its end by the same command: nothing is left undone.
    expect(of(interrupted, interrupted, { state: 'passed' })).toEqual({ state: 'passed' })
    expect(of(interrupted, failed).state).toBe('failed')
    expect(of({ state: 'passed' }, { state: 'passed' })).toEqual({ state: 'passed' })
    expect(of()).toEqual({
      state: 'unknown',
      note: 'rebuilt from stored records; how the original run ended is not recorded',
    })
  })

  test('a rebuild reads them: the benchmarks and the outcome of the run, as the reporter wrote them', async () => {
    const dir = freshDir()
    mkdirSync(dir)
    cpSync(SCALING_RUN_DIR, dir, { recursive: true })
    const failed = { state: 'failed', note: 'some tests failed (1 unhandled errors)' } as const
    await storeInvocation(dir, { finishedAt: at(1), outcome: failed, benchmarks: [] })
    await storeInvocation(dir, { finishedAt: at(2), outcome: { state: 'passed' }, benchmarks: [bench] })
    const rebuilt = await loadReportInput({ resultsDir: dir, rebuild: true })
    expect(rebuilt.benchmarks).toEqual([bench])
    expect(rebuilt.outcome).toMatchObject({ state: 'failed' })
    expect(rebuilt.records).toHaveLength(2)
    // Not a rebuild (the reporter itself): what it was given, nothing read.
    const live = await loadReportInput({ resultsDir: dir, benchmarks: [], outcome: { state: 'passed' } })
    expect(live).toMatchObject({ benchmarks: [], outcome: { state: 'passed' } })
  })
})

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  fileForecastMs,
  fileSummaries,
  readEarlierProgress,
} from '../../../src/engine/invocation-progress/earlier-progress.ts'
import { type LedgerLine, parseLedger } from '../../../src/engine/invocation-progress/ledger.ts'
import { planKey } from '../../../src/engine/invocation-progress/plan-key.ts'
import { openProgress } from '../../../src/engine/invocation-progress/setup.ts'
import { startLine } from '../../../src/engine/invocation-progress/start-line.ts'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'

const E2E = 'benchmarks/e2e.gpu.test.ts'
const STAGE = 'benchmarks/stage-throughput.gpu.test.ts'
const KEY = { suite: 'abc', gpus: ['H200 GPU-1'] }
const ARGS = ['run', '--project', 'gpu']
const PLAN = planKey({}, ARGS)
const header = (plan: object = PLAN): LedgerLine => ({
  type: 'invocation',
  at: 0,
  plan: plan as Record<string, unknown>,
})

const run = (file: string, at: number, wallMs: number, reused: 'earlier' | null = null): LedgerLine => ({
  type: 'run',
  at,
  file,
  measurement: '1-1',
  arm: '1 GPU',
  phase: 'run',
  n: 1,
  wallMs,
  exitClass: 'completed',
  reused,
})
const fileSpan = (file: string, from: number, to: number, runs: LedgerLine[]): LedgerLine[] => [
  { type: 'file-start', at: from, file },
  ...runs,
  { type: 'file-end', at: to, file },
]

/** A run directory of `root` with its state (finished, under `key`) and one ledger per invocation. */
function runDir(
  root: string,
  runId: string,
  key: object,
  ledgers: LedgerLine[][],
  updatedAt = '2026-11-29T10:00:00.000Z',
): string {
  const work = join(root, runId, 'work')
  mkdirSync(join(work, 'progress'), { recursive: true })
  const state = { format: 1, state: 'finished', key, startedAt: updatedAt, updatedAt, command: ['vitest'] }
  writeFileSync(join(work, 'state.json'), JSON.stringify(state))
  for (const [i, lines] of ledgers.entries())
    writeFileSync(
      join(work, 'progress', `2026112910000${i}000Z-1.jsonl`),
      lines.map((l) => JSON.stringify(l)).join('\n'),
    )
  return work
}

const read = (root: string, o: { plan?: object; runId?: string; continued?: boolean; ledger?: string } = {}) =>
  readEarlierProgress({
    root,
    task: null,
    key: KEY,
    plan: (o.plan ?? PLAN) as Record<string, unknown>,
    runId: o.runId ?? '2026-11-29T10-00-00Z-dddd',
    continued: o.continued ?? false,
    ledger: o.ledger ?? '/none',
  })

describe('earlier progress under the same key and plan', () => {
  test("a file counts only when an invocation ran it to its end: its runs, its span, its arms' mean times", () => {
    const lines = [
      header(),
      ...fileSpan(E2E, 0, 40_000, [run(E2E, 10_000, 8_000), run(E2E, 20_000, 6_000), run(E2E, 21_000, 9, 'earlier')]),
    ]
    lines.push({ type: 'file-start', at: 41_000, file: STAGE }, run(STAGE, 50_000, 7_000))
    expect(Object.fromEntries(fileSummaries(lines, 'r1'))).toEqual({
      [E2E]: { runs: 2, reused: 1, spanMs: 40_000, runId: 'r1', armsMs: { '1 GPU': { 'warm-up': null, run: 7_000 } } },
    })
  })

  test('a span that ends before it starts, or at once, is no evidence: no forecast, never 0 s', async () => {
    const lines = [header(), ...fileSpan(E2E, 50_000, 20_000, [run(E2E, 30_000, 8_000)]), ...fileSpan(STAGE, 7, 7, [])]
    expect(fileSummaries(lines, 'r1').size).toBe(0)
    const root = tempDirUntilFileEnd('earlier-')
    runDir(root, '2026-11-28T10-00-00Z-bbbb', KEY, [lines])
    const earlier = await read(root)
    expect(fileForecastMs(earlier, E2E)).toBeNull()
    const line = startLine({ files: [E2E], earlier, runId: 'R', resultsRoot: root, continuable: true })
    expect(line).not.toMatch(/about 0 s/)
    expect(line).toContain('the forecast follows the first run')
  })

  test('the newest run under the same key and plan forecasts each file; another key, never', async () => {
    const root = tempDirUntilFileEnd('earlier-')
    runDir(root, '2026-11-27T10-00-00Z-aaaa', KEY, [[header(), ...fileSpan(E2E, 0, 100_000, [run(E2E, 1, 50_000)])]])
    runDir(root, '2026-11-28T10-00-00Z-bbbb', KEY, [[header(), ...fileSpan(E2E, 0, 30_000, [run(E2E, 1, 20_000)])]])
    runDir(root, '2026-11-28T12-00-00Z-cccc', { ...KEY, gpus: ['H100 GPU-2'] }, [
      [header(), ...fileSpan(STAGE, 0, 9_000, [run(STAGE, 1, 5_000)])],
    ])
    const earlier = await read(root)
    expect(earlier.files).toEqual({
      [E2E]: {
        runs: 1,
        reused: 0,
        spanMs: 30_000,
        runId: '2026-11-28T10-00-00Z-bbbb',
        armsMs: { '1 GPU': { 'warm-up': null, run: 20_000 } },
      },
    })
    expect(earlier.kept).toEqual({})
    expect(fileForecastMs(earlier, E2E)).toBe(30_000)
    expect(fileForecastMs(earlier, STAGE)).toBeNull()
    const line = startLine({ files: [E2E, STAGE], earlier, runId: 'R', resultsRoot: root, continuable: true })
    expect(line).toContain(
      'Forecast: at least about 30 s, as earlier invocations of this plan under this key took them',
    )
    expect(line).toContain('e2e 1 run in 30 s')
    expect(line).toContain('stage-throughput: not run here before, forecast after its first run')
  })

  // Issue 58: a 14-s invocation at a 1 GPU-minute budget forecast "about 14 s" for a default one of many minutes.
  test('another plan (the budget, the runs, the files asked for) or none kept forecasts nothing, and says which', async () => {
    const root = tempDirUntilFileEnd('earlier-')
    const small = planKey({ VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '1' }, ARGS)
    runDir(root, '2026-11-27T10-00-00Z-aaaa', KEY, [fileSpan(E2E, 0, 9_000, [run(E2E, 1, 8_000)])])
    runDir(root, '2026-11-28T10-00-00Z-bbbb', KEY, [[header(small), ...fileSpan(E2E, 0, 14_000, [run(E2E, 1, 9_000)])]])
    const earlier = await read(root)
    expect(earlier.files).toEqual({})
    expect(earlier.otherPlan).toEqual({
      runId: '2026-11-28T10-00-00Z-bbbb',
      differences: ['settings.VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN (was 1, now null)'],
    })
    const line = startLine({ files: [E2E], earlier, runId: 'R', resultsRoot: root, continuable: true })
    expect(line).toContain('Forecast: no earlier invocation of this plan under this key in')
    expect(line).toContain(
      '(run 2026-11-28T10-00-00Z-bbbb did, with another plan: settings.VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN (was 1, now null)), so the forecast follows the first run',
    )
    expect(line).not.toContain('about 14 s')
    // Each part of the plan counts: runs, the stop rule, the files and tests asked for on the command line.
    for (const other of [
      planKey({ VIRNUCPRO_BENCH_RUNS: '5' }, ARGS),
      planKey({ VIRNUCPRO_BENCH_CAPACITY_STOP: 'width' }, ARGS),
      planKey({}, [...ARGS, 'benchmarks/scaling.gpu.test.ts', '-t', 'capacity']),
    ])
      expect((await read(root, { plan: other })).files).toEqual({})
    expect((await read(root, { plan: small })).files[E2E]?.spanMs).toBe(14_000)
  })

  test('a pinned run ID is a run: its ledgers forecast, and its continuation gets its kept runs back', async () => {
    const root = tempDirUntilFileEnd('earlier-')
    runDir(root, 'pin1', KEY, [[header(), ...fileSpan(E2E, 0, 90_000, [run(E2E, 1, 40_000), run(E2E, 2, 40_000)])]])
    expect((await read(root)).files[E2E]?.runId).toBe('pin1')
    const work = runDir(
      root,
      'vnp-small',
      KEY,
      [[header(), { type: 'file-start', at: 0, file: E2E }, run(E2E, 1, 40_000)], []],
      '2026-11-29T11:00:00.000Z',
    )
    const ledger = join(work, 'progress', '20261129100001000Z-1.jsonl')
    const earlier = await read(root, { runId: 'vnp-small', continued: true, ledger })
    expect(earlier.kept).toEqual({ [E2E]: { runs: 1, warmups: 0, wallMs: 40_000 } })
    expect(fileForecastMs(earlier, E2E)).toBe(50_000)
  })

  test('a continuation: the runs its earlier invocations measured are reused, and come off the forecast', async () => {
    const root = tempDirUntilFileEnd('earlier-')
    runDir(root, '2026-11-28T10-00-00Z-bbbb', KEY, [
      [header(), ...fileSpan(E2E, 0, 90_000, [run(E2E, 1, 40_000), run(E2E, 2, 40_000)])],
    ])
    const cut = '2026-11-29T10-00-00Z-dddd'
    const work = runDir(root, cut, KEY, [[header(), { type: 'file-start', at: 0, file: E2E }, run(E2E, 1, 40_000)], []])
    const ledger = join(work, 'progress', '20261129100001000Z-1.jsonl')
    const earlier = await read(root, { runId: cut, continued: true, ledger })
    expect(earlier.kept).toEqual({ [E2E]: { runs: 1, warmups: 0, wallMs: 40_000 } })
    expect(fileForecastMs(earlier, E2E)).toBe(50_000)
    const line = startLine({ files: [E2E], earlier, runId: cut, resultsRoot: root, continuable: true })
    expect(line).toContain('Forecast: about 50 s')
    expect(line).toContain("1 run kept by this run's earlier invocations (40 s of runs) are reused, not measured again")
    expect(line).toContain(`the same command run again continues run ${cut} where it stopped`)
  })

  test("openProgress keeps the invocation's plan as its ledger's first line; the next of the same plan reads it", async () => {
    const root = tempDirUntilFileEnd('earlier-')
    const work = runDir(root, '2026-11-28T10-00-00Z-bbbb', KEY, [])
    const env = { VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '1' }
    const opened = await openProgress({
      root,
      workDir: work,
      task: null,
      key: KEY,
      runId: '2026-11-28T10-00-00Z-bbbb',
      continued: false,
      env,
      args: ARGS,
    })
    const [first] = parseLedger(readFileSync(opened.ledger, 'utf8'))
    expect(first).toMatchObject({ type: 'invocation', plan: planKey(env, ARGS) })
  })
})

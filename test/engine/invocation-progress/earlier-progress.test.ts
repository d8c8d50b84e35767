import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  fileForecastMs,
  fileSummaries,
  readEarlierProgress,
} from '../../../src/engine/invocation-progress/earlier-progress.ts'
import type { LedgerLine } from '../../../src/engine/invocation-progress/ledger.ts'
import { startLine } from '../../../src/engine/invocation-progress/start-line.ts'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'

const E2E = 'benchmarks/e2e.gpu.test.ts'
const STAGE = 'benchmarks/stage-throughput.gpu.test.ts'
const KEY = { suite: 'abc', gpus: ['H200 GPU-1'] }

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
function runDir(root: string, runId: string, key: object, ledgers: LedgerLine[][]): string {
  const work = join(root, runId, 'work')
  mkdirSync(join(work, 'progress'), { recursive: true })
  const at = '2026-11-29T10:00:00.000Z'
  const state = { format: 1, state: 'finished', key, startedAt: at, updatedAt: at, command: ['vitest'] }
  writeFileSync(join(work, 'state.json'), JSON.stringify(state))
  for (const [i, lines] of ledgers.entries())
    writeFileSync(
      join(work, 'progress', `2026112910000${i}000Z-1.jsonl`),
      lines.map((l) => JSON.stringify(l)).join('\n'),
    )
  return work
}

describe('earlier progress under the same key', () => {
  test('a file counts only when an invocation ran it to its end: its runs and its span', () => {
    const lines = [...fileSpan(E2E, 0, 40_000, [run(E2E, 10_000, 8_000), run(E2E, 20_000, 8_000, 'earlier')])]
    lines.push({ type: 'file-start', at: 41_000, file: STAGE }, run(STAGE, 50_000, 7_000))
    expect(Object.fromEntries(fileSummaries(lines, 'r1'))).toEqual({
      [E2E]: { runs: 1, reused: 1, spanMs: 40_000, runId: 'r1' },
    })
  })

  test('the newest run under the same key forecasts each file; another key, never', async () => {
    const root = tempDirUntilFileEnd('earlier-')
    runDir(root, '2026-11-27T10-00-00Z-aaaa', KEY, [fileSpan(E2E, 0, 100_000, [run(E2E, 1, 50_000)])])
    runDir(root, '2026-11-28T10-00-00Z-bbbb', KEY, [fileSpan(E2E, 0, 30_000, [run(E2E, 1, 20_000)])])
    runDir(root, '2026-11-28T12-00-00Z-cccc', { ...KEY, gpus: ['H100 GPU-2'] }, [
      fileSpan(STAGE, 0, 9_000, [run(STAGE, 1, 5_000)]),
    ])
    const earlier = await readEarlierProgress({
      root,
      task: null,
      key: KEY,
      runId: '2026-11-29T10-00-00Z-dddd',
      continued: false,
      ledger: '/none',
    })
    expect(earlier.files).toEqual({ [E2E]: { runs: 1, reused: 0, spanMs: 30_000, runId: '2026-11-28T10-00-00Z-bbbb' } })
    expect(earlier.kept).toEqual({})
    expect(fileForecastMs(earlier, E2E)).toBe(30_000)
    expect(fileForecastMs(earlier, STAGE)).toBeNull()
    const line = startLine({ files: [E2E, STAGE], earlier, runId: 'R', resultsRoot: root, continuable: true })
    expect(line).toContain('Forecast: at least about 30 s, as earlier invocations under this key took them')
    expect(line).toContain('e2e 1 run in 30 s')
    expect(line).toContain('stage-throughput: not run here before, forecast after its first run')
  })

  test('a continuation: the runs its earlier invocations measured are reused, and come off the forecast', async () => {
    const root = tempDirUntilFileEnd('earlier-')
    runDir(root, '2026-11-28T10-00-00Z-bbbb', KEY, [
      fileSpan(E2E, 0, 90_000, [run(E2E, 1, 40_000), run(E2E, 2, 40_000)]),
    ])
    const cut = '2026-11-29T10-00-00Z-dddd'
    const work = runDir(root, cut, KEY, [[{ type: 'file-start', at: 0, file: E2E }, run(E2E, 1, 40_000)], []])
    const ledger = join(work, 'progress', '20261129100001000Z-1.jsonl')
    const earlier = await readEarlierProgress({ root, task: null, key: KEY, runId: cut, continued: true, ledger })
    expect(earlier.kept).toEqual({ [E2E]: { runs: 1, warmups: 0, wallMs: 40_000 } })
    expect(fileForecastMs(earlier, E2E)).toBe(50_000)
    const line = startLine({ files: [E2E], earlier, runId: cut, resultsRoot: root, continuable: true })
    expect(line).toContain('Forecast: about 50 s')
    expect(line).toContain("1 run kept by this run's earlier invocations (40 s of runs) are reused, not measured again")
    expect(line).toContain(`the same command run again continues run ${cut} where it stopped`)
  })
})

// The graceful stop's own steps, on a work directory as an invocation leaves it when the signal comes (the whole stop
// against a real campaign, SIGTERM to its process group, is test/engine/continue-campaign.test.ts).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { gracefulStop } from '../../src/engine/graceful-stop.ts'
import { readInvocations } from '../../src/results/invocations.ts'
import { RUN_FILE } from '../../src/results/run-journal.ts'
import { type RunState, readRunStateSync } from '../../src/results/run-state.ts'
import { acquireWriter, WRITER_FILE } from '../../src/results/writer-lock.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const at = '2026-11-26T10:00:00.000Z'
const running: RunState = { format: 1, state: 'running', key: {}, startedAt: at, updatedAt: at, command: ['vitest'] }

async function stopIn(kept: number, signal: 'SIGINT' | 'SIGTERM') {
  const resultsDir = tempDirUntilFileEnd('stop-')
  const workDir = join(resultsDir, 'work')
  for (let n = 1; n <= kept; n++) {
    mkdirSync(join(workDir, 'slot', `run-${n}`), { recursive: true })
    writeFileSync(join(workDir, 'slot', `run-${n}`, RUN_FILE), '{}')
  }
  await acquireWriter(workDir, { token: 'inv' })
  const lines: string[] = []
  const codes: number[] = []
  const called = join(resultsDir, 'report-called')
  gracefulStop(
    {
      runId: 'run-1',
      resultsDir,
      workDir,
      token: 'inv',
      state: running,
      // Stands for `virnucpro-bench report`: writes its arguments where the test can read them.
      reportCommand: {
        file: process.execPath,
        args: [
          '-e',
          `require('node:fs').writeFileSync(${JSON.stringify(called)}, JSON.stringify(process.argv.slice(1)))`,
        ],
      },
      reportsDir: join(resultsDir, 'reports'),
      say: (line) => lines.push(line),
      exit: (code) => codes.push(code),
      // Not this test worker's children: the stop's own process scan is exercised by the campaign test.
      workers: () => [],
    },
    signal,
  )
  return { resultsDir, workDir, lines, codes, called }
}

describe('gracefulStop', () => {
  test('SIGTERM with runs kept: state interrupted, lock released, the invocation recorded, the reports written, 143', async () => {
    const s = await stopIn(2, 'SIGTERM')
    expect(s.codes).toEqual([143])
    expect(readRunStateSync(s.workDir)?.state).toBe('interrupted')
    expect(existsSync(join(s.workDir, WRITER_FILE))).toBe(false)
    expect(JSON.parse(readFileSync(s.called, 'utf8'))).toEqual([
      'report',
      s.resultsDir,
      '--out',
      join(s.resultsDir, 'reports'),
    ])
    const { invocations } = await readInvocations(s.resultsDir)
    expect(invocations.map((i) => i.outcome)).toEqual([
      { state: 'interrupted', note: 'stopped by SIGTERM with 2 measured run(s) kept' },
    ])
    expect(s.lines).toEqual([
      `virnucpro-bench: stopped by SIGTERM: 2 measured runs kept (warm-ups apart) in ${s.workDir} (reports in ${join(s.resultsDir, 'reports')}: PROVISIONAL, from the runs kept so far); to continue, run the same command again into the same results directory (a run cut short is measured again; VIRNUCPRO_BENCH_FRESH=1 starts afresh)`,
    ])
  })

  test('SIGINT before any run finished: nothing to report, 130, and still how to continue', async () => {
    const s = await stopIn(0, 'SIGINT')
    expect(s.codes).toEqual([130])
    expect(existsSync(s.called)).toBe(false)
    expect(s.lines[0]).toMatch(
      /^virnucpro-bench: stopped by SIGINT: 0 measured runs kept \(warm-ups apart\) in .*; to continue, run the same command again/,
    )
  })
})

// The graceful stop's own steps, on a work directory as an invocation leaves it when the signal comes (the whole stop
// against a real campaign, SIGTERM to its process group, is test/engine/continue-campaign.test.ts; signals repeated to
// that group, heard through the stop's canary, test/engine/graceful-stop-repeated.test.ts). Here repeats are scripted.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { gracefulStop } from '../../src/engine/graceful-stop.ts'
import type { RepeatListener } from '../../src/engine/repeated-signals.ts'
import { readProcStat } from '../../src/pipeline/proc.ts'
import { readInvocations } from '../../src/results/invocations.ts'
import { RUN_FILE } from '../../src/results/run-journal.ts'
import { type RunState, readRunStateSync } from '../../src/results/run-state.ts'
import { acquireWriter, WRITER_FILE } from '../../src/results/writer-lock.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const at = '2026-11-26T10:00:00.000Z'
const running: RunState = { format: 1, state: 'running', key: {}, startedAt: at, updatedAt: at, command: ['vitest'] }

type StopSignal = 'SIGINT' | 'SIGTERM'

/**
 * Hears `signal` once each of `atMs` has passed, counted from now, or (`fromStandIn`) from when the report stand-in's
 * stat file appears, its first act. Counted from the call, a busy machine (CI beside other work, load 8) started the stand-in
 * after the third signal had come, and its stat file was not there to read (issue 45).
 */
function repeatsAt(signal: StopSignal, atMs: number[], fromStandIn = false) {
  return (standInStat: string) => (): RepeatListener => {
    let start = fromStandIn ? null : Date.now()
    const due = [...atMs]
    return {
      heard: () => {
        if (start === null && existsSync(standInStat)) start = Date.now()
        return start !== null && due.length > 0 && Date.now() - start >= due[0]! && due.shift() !== undefined
          ? signal
          : null
      },
      end: () => {},
    }
  }
}

const nothingHeard = repeatsAt('SIGINT', [])

/**
 * Stands for `virnucpro-bench report`: writes its /proc stat (its process group and session) at once, then after
 * `delayMs` its arguments, where the test can read them.
 */
function reportStandIn(dir: string, delayMs: number) {
  const stat = join(dir, 'report-stat')
  const called = join(dir, 'report-called')
  const script = `const fs = require('node:fs')
fs.writeFileSync(${JSON.stringify(stat)}, fs.readFileSync('/proc/self/stat', 'utf8'))
setTimeout(() => fs.writeFileSync(${JSON.stringify(called)}, JSON.stringify(process.argv.slice(1))), ${delayMs})`
  return { command: { file: process.execPath, args: ['-e', script] }, stat, called }
}

async function stopIn(kept: number, signal: StopSignal, repeats = nothingHeard, reportDelayMs = 0) {
  const resultsDir = tempDirUntilFileEnd('stop-')
  const workDir = join(resultsDir, 'work')
  for (let n = 1; n <= kept; n++) {
    mkdirSync(join(workDir, 'slot', `run-${n}`), { recursive: true })
    writeFileSync(join(workDir, 'slot', `run-${n}`, RUN_FILE), '{}')
  }
  await acquireWriter(workDir, { token: 'inv' })
  const lines: string[] = []
  const codes: number[] = []
  const report = reportStandIn(resultsDir, reportDelayMs)
  const startedAt = Date.now()
  gracefulStop(
    {
      runId: 'run-1',
      resultsDir,
      workDir,
      token: 'inv',
      state: running,
      reportCommand: report.command,
      reportsDir: join(resultsDir, 'reports'),
      say: (line) => lines.push(line),
      exit: (code) => codes.push(code),
      // Not this test worker's children: the stop's own process scan is exercised by the campaign test.
      workers: () => [],
      listen: repeats(report.stat),
    },
    signal,
  )
  return { resultsDir, workDir, lines, codes, called: report.called, stat: report.stat, tookMs: Date.now() - startedAt }
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

  test('a second signal is said, and the reports are still written, in a session of their own', async () => {
    const s = await stopIn(1, 'SIGINT', repeatsAt('SIGINT', [100]), 600)
    expect(s.codes).toEqual([130])
    expect(existsSync(s.called)).toBe(true)
    // Out of the reach of the group's next signal: the report leads a session (and a process group) of its own.
    const stat = readFileSync(s.stat, 'utf8')
    const [, , pgid, sid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    expect([pgid, sid]).toEqual([stat.split(' ')[0], stat.split(' ')[0]])
    expect(s.lines[0]).toBe('virnucpro-bench: SIGINT again: finishing the reports (once more to exit at once)')
    expect(s.lines.slice(1)).toEqual([
      expect.stringMatching(/^virnucpro-bench: stopped by SIGINT: 1 measured run kept/),
    ])
    expect(s.lines[1]).toContain('to continue, run the same command again')
  })

  test('a third signal ends the report at once, and the line says the reports may be incomplete', async () => {
    const s = await stopIn(2, 'SIGTERM', repeatsAt('SIGTERM', [100, 300], true), 30_000)
    expect(s.codes).toEqual([143])
    expect(s.tookMs).toBeLessThan(3_000)
    expect(existsSync(s.called)).toBe(false)
    // Killed, not left to write reports behind the stop's last line: gone, or a zombie until this worker reaps it.
    const pid = Number(readFileSync(s.stat, 'utf8').split(' ')[0])
    await expect.poll(() => readProcStat(pid)?.state ?? 'Z', { timeout: 1_000 }).toBe('Z')
    expect(readRunStateSync(s.workDir)?.state).toBe('interrupted')
    expect(existsSync(join(s.workDir, WRITER_FILE))).toBe(false)
    expect(s.lines).toEqual([
      'virnucpro-bench: SIGTERM again: finishing the reports (once more to exit at once)',
      `virnucpro-bench: stopped by SIGTERM, then twice more: 2 measured runs kept (warm-ups apart) in ${s.workDir}; the reports in ${join(s.resultsDir, 'reports')} may be incomplete (\`virnucpro-bench report ${s.resultsDir} --out ${join(s.resultsDir, 'reports')}\` writes them); to continue, run the same command again into the same results directory (a run cut short is measured again; VIRNUCPRO_BENCH_FRESH=1 starts afresh)`,
    ])
  })
})

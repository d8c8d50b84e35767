import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { TargetEvent } from '../../src/pipeline/events.ts'
import { runTarget } from '../../src/pipeline/runner.ts'
import { RunRecordSchema } from '../../src/results/schema/run-record.ts'
import { useWorkdir } from './support/fake-profile.ts'
import { scriptProfile } from './support/script-profile.ts'
import { prefixed, stageEnd, stageStart, summaryBlock, workerLine } from './support/upstream-format.ts'

/**
 * What the target writes, however odd (issue 32's fault sweep, "the target's output"): a line of many MB, a number
 * no double holds, control bytes in a stage header, bars redrawn with `\r`, a daemon left behind. Each case runs a
 * real bash target; the record must come back whole, valid against its own schema, and bounded.
 */

const work = useWorkdir()

/** Runs a bash script as the target; `$WRITTEN` is a file the test filled with the bytes the target prints. */
async function runScript(script: string, written?: Buffer, onEvent?: (e: TargetEvent) => void) {
  const writtenPath = join(work.dir, 'written.bin')
  if (written) await writeFile(writtenPath, written)
  return runTarget(scriptProfile(script), {
    input: work.input,
    outputDir: work.outputDir,
    env: { FAKE_RUN_TAG: work.tag, WRITTEN: writtenPath },
    graceMs: 500,
    pollIntervalMs: 50,
    onEvent,
  })
}

/** Every string anywhere in a value. */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(stringsIn)
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...stringsIn(v)])
  return []
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what the record must not hold.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

const PRINT_AND_FINISH = 'cat "$WRITTEN"; "$NOOP" "$@"'

describe("the target's output, however odd, comes back as a whole, bounded record", () => {
  test('a 10 MB line is kept whole in the log file and cut, with the size cut, in the record', async () => {
    const longLine = 'x'.repeat(10_000_000)
    const written = Buffer.from(`${prefixed(stageStart(1, 'Sequence Chunking'))}\n${longLine}\nafter\n`)
    const record = await runScript(PRINT_AND_FINISH, written)
    expect(record.exitClass).toBe('completed')
    // Buffer.equals: a deep comparison of 10 MB would take seconds.
    expect((await readFile(record.logPath!)).equals(written)).toBe(true)
    const kept = record.logTail.find((l) => l.startsWith('xxx'))!
    expect(kept.length).toBeLessThan(2_000)
    expect(kept).toMatch(/…\[9,99\d,\d{3} bytes cut\]$/)
    expect(record.logTail.at(-1)).toBe('after')
    expect(JSON.stringify(record).length).toBeLessThan(20_000)
  })

  test('a 400-digit stage duration is a reading error naming its line; the record stays valid', async () => {
    const huge = '9'.repeat(400)
    const lines = [
      prefixed(stageStart(1, 'Sequence Chunking')),
      prefixed(`  Sequence Chunking completed in ${huge}.0s [sequences: 1,234]`),
      prefixed(stageStart(2, 'Six-Frame Translation')),
      prefixed(`  Six-Frame Translation completed in 0.5s [sequences: ${huge}]`),
    ]
    const record = await runScript(PRINT_AND_FINISH, Buffer.from(`${lines.join('\n')}\n`))
    expect(record.exitClass).toBe('completed')
    expect(RunRecordSchema.safeParse(record).error).toBeUndefined()
    expect(record.stages.map((s) => [s.name, s.endMs !== null, s.logDurationS])).toEqual([
      ['Sequence Chunking', true, null],
      ['Six-Frame Translation', true, 0.5],
    ])
    expect(record.logReadErrors?.total).toBe(2)
    const [duration, extra] = record.logReadErrors?.first ?? []
    expect(duration).toMatchObject({
      stream: 'stdout',
      reason: expect.stringMatching(/^stage duration '9{20}…' \(402 characters\) is beyond what a number holds$/),
      line: expect.stringContaining('Sequence Chunking completed in 9999'),
    })
    expect(duration!.line.length).toBeLessThan(400)
    expect(extra?.reason).toMatch(/^sequences '9{20}…' \(400 characters\) is beyond what a number holds$/)
  })

  test('control bytes in a stage header: the stage still starts and ends, and no control byte reaches the record', async () => {
    const written = Buffer.from(
      [
        prefixed('=== Stage 5: DNABERT-S\0 Feature Extraction ==='),
        `\x1b[32m${prefixed('=== Stage 6: ESM-2 Feature Extraction ===')}\x1b[0m`,
        prefixed(stageEnd('DNABERT-S Feature Extraction', 1.5)),
        prefixed(stageEnd('ESM-2 Feature Extraction', 2.5)),
        'bell\x07 and delete\x7f',
        '',
      ].join('\n'),
    )
    const record = await runScript(PRINT_AND_FINISH, written)
    expect(record.stages.map((s) => [s.index, s.name, s.logDurationS])).toEqual([
      [5, 'DNABERT-S Feature Extraction', 1.5],
      [6, 'ESM-2 Feature Extraction', 2.5],
    ])
    expect(stringsIn(record).filter((s) => CONTROL.test(s))).toEqual([])
    expect(record.logTail).toContain('bell\\u0007 and delete\\u007f')
    expect(await readFile(record.logPath!)).toEqual(written)
  })

  test('every event is read when it follows tqdm redraws (\\r, no \\n) on the same physical line', async () => {
    const bar = (n: number) => `\r${String(n * 10).padStart(3)}%|${'#'.repeat(n)}${' '.repeat(10 - n)}| ${n}/10`
    const redraws = Array.from({ length: 11 }, (_, n) => bar(n)).join('')
    const stages = [
      { name: 'Sequence Chunking', durationS: 1.0 },
      { name: 'Six-Frame Translation', durationS: 2.0 },
    ]
    // Bars as tqdm draws them: `\r` before each redraw; one closed with leave=False (cleared by `\r`), one left on
    // its line with the next log line glued after it (a logger writing while the bar is shown).
    const out = [
      `${redraws}\r${' '.repeat(20)}\r${prefixed(stageStart(1, stages[0]!.name))}\r\n`,
      `${redraws}\r${prefixed(stageEnd(stages[0]!.name, 1.0))}\n`,
      `${redraws}${prefixed(stageStart(2, stages[1]!.name))}\n`,
      `${redraws}\r${workerLine(0, 'Batch 1: 100/300 (33.3%) | 91.2% pack eff, 16,475 tok/s, 321.5 seq/s, ETA: 0:00:02')}\r\n`,
      `${redraws}${prefixed(stageEnd(stages[1]!.name, 2.0))}\r`,
      ...summaryBlock({ totalS: 3.0, stages, sequences: 300 }).map((m) => `${redraws}\r${prefixed(m)}\n`),
    ].join('')
    const events: TargetEvent[] = []
    const record = await runScript('cat "$WRITTEN" >&2; "$NOOP" "$@"', Buffer.from(out), (e) => events.push(e))
    expect(record.stages.map((s) => [s.name, s.logDurationS, s.summaryDurationS])).toEqual([
      ['Sequence Chunking', 1.0, 1.0],
      ['Six-Frame Translation', 2.0, 2.0],
    ])
    expect(events.filter((e) => e.type === 'batch')).toHaveLength(1)
    expect(record.summary).toMatchObject({ totalWallS: 3.0, sequencesProcessed: 300 })
    expect(record.logTail.at(-1)).toBe(prefixed('='.repeat(80)))
    // The tail shows what a terminal would: a bar's redraws drawn over, a line glued after its last state kept.
    expect(record.logTail.filter((l) => l.includes('%|'))).toEqual([
      `100%|##########| 10/10${prefixed(stageStart(2, stages[1]!.name))}`,
    ])
    expect(await readFile(record.logPath!, 'latin1')).toBe(out)
  })

  test('a daemon (double fork, setsid) the target leaves behind is ended and named', async () => {
    // The subshell exits at once, so the daemon is re-parented to init; the pause lets it leave the group and the
    // session (setsid) before the target ends, as a real daemon has long done when a run ends.
    const script = '( setsid sleep 600 </dev/null >/dev/null 2>&1 & ); sleep 0.3; "$NOOP" "$@"'
    const record = await runScript(script)
    expect(record.exitClass).toBe('completed')
    const named = [...(record.cleanup?.escapees ?? []), ...(record.cleanup?.survivors.map((s) => s.pid) ?? [])]
    expect(named).toHaveLength(1)
    expect(record.pids).toContain(named[0])
    expect(record.cleanup?.survivors).toEqual([])
  })
})

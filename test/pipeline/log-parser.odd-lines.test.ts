import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { TargetEvent } from '../../src/pipeline/events.ts'
import { createLogParser } from '../../src/pipeline/log-parser.ts'
import { batchLine, prefixed, stageEnd, stageStart, summaryBlock, workerLine } from './support/upstream-format.ts'

/**
 * The parser on the output a pipeline writes on a bad day (issue 32's sweep): control bytes inside its lines, numbers
 * no double holds, a log line glued to a tqdm bar's last redraw. No event carries a control character or a number that
 * is not finite, and a line with an unreadable number is named by a read-error, never dropped in silence.
 */

function parseLines(lines: string[]): TargetEvent[] {
  const parser = createLogParser()
  return lines.flatMap((line, i) => parser.push(line, i))
}

/** Every string and number anywhere in a value. */
function leaves(value: unknown): (string | number)[] {
  if (typeof value === 'string' || typeof value === 'number') return [value]
  if (Array.isArray(value)) return value.flatMap(leaves)
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...leaves(v)])
  return []
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what an event must not hold.
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/

/** A control character that is not the start of an escape sequence (ESC and CSI take the next characters with them). */
const control = fc
  .integer({ min: 0, max: 0x9f })
  .filter((c) => (c < 0x20 || c >= 0x7f) && c !== 0x1b && c !== 0x9b && c !== 0x09)
  .map((c) => String.fromCharCode(c))
const sgr = fc.integer({ min: 0, max: 107 }).map((n) => `\x1b[${n}m`)

/** `line` with control characters and colour codes put in between any of its characters (not inside each other). */
const dirtied = (line: string) =>
  fc.array(fc.tuple(fc.nat(), fc.oneof(control, sgr)), { minLength: 1, maxLength: 6 }).map((dirt) => {
    const at = new Map<number, string>()
    for (const [i, bytes] of dirt) at.set(i % (line.length + 1), (at.get(i % (line.length + 1)) ?? '') + bytes)
    return [...line, ''].map((c, i) => (at.get(i) ?? '') + c).join('')
  })

/** A positive integer's digits, `min` to `max` of them (short ones and long ones alike). */
const digits = (min: number, max: number) =>
  fc
    .tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: min - 1, max: max - 1 }), fc.nat())
    .map(([lead, more, seed]) => `${lead}${String(seed).repeat(more).slice(0, more).padEnd(more, '7')}`)

describe('control characters in a line', () => {
  test('a stage header or end with control characters anywhere reads as the line without them', () => {
    const lines = [
      prefixed(stageStart(5, 'DNABERT-S Feature Extraction')),
      prefixed(stageEnd('DNABERT-S Feature Extraction', 12.5, [['sequences', 1234]])),
      workerLine(1, 'Batch 3: 300/900 (33.3%) | 91.2% pack eff, 16,474 tok/s, 321.5 seq/s, ETA: 0:00:02'),
    ]
    fc.assert(
      fc.property(
        fc.constantFrom(...lines).chain((line) => fc.tuple(fc.constant(line), dirtied(line))),
        ([line, dirty]) => {
          expect(parseLines([line, dirty]).map((e) => ({ ...e, atMs: 0 }))).toEqual(
            parseLines([line, line]).map((e) => ({ ...e, atMs: 0 })),
          )
        },
      ),
    )
  })

  test('no event of any line holds a control character', () => {
    const line = fc.oneof(
      // Any characters, control and C1 ones common (fast-check's 'binary' unit is slow to generate).
      fc.array(fc.integer({ min: 0, max: 0x3ff }), { maxLength: 80 }).map((codes) => String.fromCharCode(...codes)),
      dirtied(prefixed(stageStart(1, 'Sequence Chunking'))),
      dirtied(workerLine(0, 'Async inference complete: 300 sequences, 321.5 seq/s, 16,474 tokens/s')),
      dirtied(prefixed('RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB')),
    )
    fc.assert(
      fc.property(fc.array(line, { maxLength: 10 }), (lines) => {
        const strings = leaves(parseLines(lines)).filter((v) => typeof v === 'string')
        expect(strings.filter((s) => CONTROL.test(s))).toEqual([])
      }),
    )
  })
})

describe('numbers no double holds', () => {
  test('any line with numbers of any length: every number in an event is finite, each unreadable one named', () => {
    const huge = digits(1, 400)
    const line = fc.oneof(
      fc.tuple(huge, huge).map(([s, n]) => prefixed(`  Sequence Chunking completed in ${s}.5s [sequences: ${n}]`)),
      huge.map((n) => prefixed(`=== Stage ${n}: Sequence Chunking ===`)),
      fc
        .tuple(huge, huge)
        .map(([done, rate]) =>
          workerLine(0, `Batch 1: ${done}/900 (33.3%) | 91.2% pack eff, ${rate} tok/s, 1.5 seq/s, ETA: 0:01`),
        ),
      fc
        .tuple(huge, huge)
        .map(([n, s]) => prefixed(`Translation complete: processed ${n} sequences in ${s}.0s (1,000 seq/s)`)),
      fc.tuple(huge, huge).map(([done, total]) => prefixed(`DNABERT-S progress: ${done}/${total} (10%)`)),
      huge.map((n) => `2026-11-22 00:00:00,123 - Worker ${n} - w - INFO - Async inference complete: ${n} seq/s`),
    )
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), (lines) => {
        const events = parseLines(lines)
        const numbers = leaves(events).filter((v) => typeof v === 'number')
        expect(numbers.filter((n) => !Number.isFinite(n))).toEqual([])
        // A line whose events hold fewer numbers than it printed names what it could not read.
        for (const [i, text] of lines.entries()) {
          const unreadable = /\d{16,}/.test(text.replace(/^2026-11-22 00:00:00(,123)?/, ''))
          const named = events.some((e) => e.type === 'read-error' && e.atMs === i)
          expect(named, text.slice(0, 120)).toBe(unreadable && hasUnsafe(text))
        }
      }),
    )
  })

  test('a 400-digit stage duration still ends its stage, with no duration, and names the line', () => {
    const huge = '9'.repeat(400)
    const line = prefixed(`  Sequence Chunking completed in ${huge}.0s [sequences: 1,234]`)
    expect(parseLines([prefixed(stageStart(1, 'Sequence Chunking')), line]).slice(1)).toEqual([
      {
        type: 'stage-end',
        name: 'Sequence Chunking',
        index: 1,
        durationS: null,
        skippedReason: null,
        extras: { sequences: 1234 },
        atMs: 1,
      },
      {
        type: 'read-error',
        line,
        problems: [`stage duration '${'9'.repeat(20)}…' (402 characters) is beyond what a number holds`],
        atMs: 1,
      },
    ])
  })

  test('an integer past 2^53 - 1 is named: it would read back as another integer', () => {
    const events = parseLines([prefixed(stageEnd('Sequence Chunking', 1, [['sequences', '9007199254740993']]))])
    expect(events.map((e) => (e.type === 'read-error' ? e.problems : e.type))).toEqual([
      'stage-end',
      ["sequences '9007199254740993' is beyond the largest exact integer (9,007,199,254,740,991)"],
    ])
  })

  test('a summary whose total no double holds is no summary, and is named', () => {
    const lines = summaryBlock({ totalS: 3, stages: [{ name: 'Sequence Chunking', durationS: 3 }], sequences: 3 })
    const huge = lines.map((l) => l.replace('(3.0s)', `(${'9'.repeat(400)}.0s)`))
    const events = parseLines(huge.map((m) => prefixed(m)))
    expect(events.map((e) => e.type)).toEqual(['read-error'])
  })
})

describe('a log line glued to a tqdm bar', () => {
  test("a logger writing while a bar is shown: the line's prefix is found after the bar's last redraw", () => {
    const bar = ' 45%|####5     | 9/20 [00:04<00:05,  2.20it/s]'
    const events = parseLines([
      `${bar}${prefixed(stageStart(6, 'ESM-2 Feature Extraction'))}`,
      `${bar}${workerLine(1, batchLine(2, 200, 900, 0.912, 16474, 321.5, '0:00:02'))}`,
    ])
    expect(events.map((e) => e.type)).toEqual(['tqdm', 'stage-start', 'tqdm', 'worker', 'batch'])
    // The bar's last redraw is read too: a rate's source where a stage logs no batch lines.
    expect(events[0]).toMatchObject({ label: null, done: 9, total: 20, elapsedS: 4 })
  })
})

/** Whether any digit run of `text` (after the timestamp) is a number no double holds exactly. */
function hasUnsafe(text: string): boolean {
  const body = text.replace(/^2026-11-22 00:00:00(,123)?/, '')
  return [...body.matchAll(/\d+(?:\.\d+)?/g)].some(([m]) => {
    const v = Number(m)
    return !Number.isFinite(v) || (!m.includes('.') && !Number.isSafeInteger(v))
  })
}

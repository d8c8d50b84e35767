import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { createLogParser } from '../../src/pipeline/log-parser.ts'
import { batchLine, type Extra, prefixed, stageEnd, stageStart, summaryBlock } from './support/upstream-format.ts'

const stageName = fc.stringMatching(/^[A-Z][A-Za-z0-9-]{0,12}( [A-Za-z0-9-]{1,10}){0,3}$/)
const tenths = fc.integer({ min: 0, max: 9_999_999 }).map((t) => t / 10)
const extraKey = fc.stringMatching(/^[a-z][a-z_ ]{0,12}[a-z]$/)
const extraValue = fc.oneof(
  fc.integer({ min: 0, max: 2_000_000_000 }),
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9._()-]{0,12}$/),
)
const extras = fc.uniqueArray(fc.tuple(extraKey, extraValue), { selector: ([k]) => k, maxLength: 5 })
const withPrefix = fc.boolean()

function parseLines(lines: string[]) {
  const parser = createLogParser()
  return lines.flatMap((line, i) => parser.push(line, i))
}

describe('log parser properties', () => {
  test('any stage start formatted upstream parses back exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99 }), stageName, withPrefix, (index, name, pre) => {
        const line = stageStart(index, name)
        expect(parseLines([pre ? prefixed(line) : line])).toEqual([{ type: 'stage-start', index, name, atMs: 0 }])
      }),
    )
  })

  test('any stage end with timing and extras parses back exactly', () => {
    fc.assert(
      fc.property(stageName, tenths, extras, fc.option(fc.stringMatching(/^[a-z]{1,10}$/)), (name, s, kv, skip) => {
        const list: Extra[] = skip === null ? kv : [...kv, ['skipped', { reason: skip }]]
        const [event] = parseLines([stageStart(1, name), prefixed(stageEnd(name, s, list))]).slice(1)
        expect(event).toEqual({
          type: 'stage-end',
          name,
          index: 1,
          durationS: s,
          skippedReason: skip,
          extras: Object.fromEntries(kv),
          atMs: 1,
        })
      }),
    )
  })

  test('any summary block formatted upstream parses back exactly', () => {
    const stages = fc.array(fc.record({ name: stageName, durationS: fc.option(tenths) }), {
      minLength: 1,
      maxLength: 9,
    })
    fc.assert(
      fc.property(stages, tenths, fc.integer({ min: 1, max: 10_000_000 }), (list, totalS, sequences) => {
        const events = parseLines(summaryBlock({ totalS, stages: list, sequences }).map((m) => prefixed(m)))
        expect(events).toHaveLength(1)
        const block = events[0]?.type === 'summary' ? events[0].summary : null
        expect(block?.totalWallS).toBe(totalS)
        expect(block?.sequencesProcessed).toBe(sequences)
        expect(block?.stages.map((s) => [s.index, s.name, s.durationS])).toEqual(
          list.map((s, i) => [i + 1, s.name, s.durationS]),
        )
      }),
    )
  })

  test('unrelated lines never throw and never produce events', () => {
    const unrelated = fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 80 }))
    fc.assert(
      fc.property(fc.array(fc.tuple(unrelated, withPrefix), { maxLength: 20 }), (lines) => {
        expect(parseLines(lines.map(([l, pre]) => (pre ? prefixed(l) : l)))).toEqual([])
      }),
    )
  })

  test('a stage start cut anywhere produces nothing', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99 }), stageName, fc.nat(), (index, name, cut) => {
        const line = stageStart(index, name)
        expect(parseLines([line.slice(0, cut % line.length)])).toEqual([])
      }),
    )
  })

  test('a stage end cut inside its duration or extras list produces nothing', () => {
    fc.assert(
      fc.property(
        stageName,
        tenths,
        extras.filter((kv) => kv.length > 0),
        fc.nat(),
        (name, s, kv, cut) => {
          const line = stageEnd(name, s, kv)
          const from = line.indexOf(' completed in ') + 1
          const end = from + (cut % (line.length - from))
          // Cutting exactly before " [" leaves a complete line without extras: upstream prints those too.
          fc.pre(line.slice(end, end + 2) !== ' [')
          expect(parseLines([line.slice(0, end)])).toEqual([])
        },
      ),
    )
  })

  test('a batch line cut before its ETA produces nothing', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.nat(), (total, cut) => {
        const line = batchLine(7, Math.ceil(total / 2), total, 0.9, 16474, 321.5, '0:00:57')
        expect(parseLines([line.slice(0, cut % (line.indexOf('ETA: ') + 5))])).toEqual([])
      }),
    )
  })

  test('a summary block cut before its closing rule produces nothing', () => {
    fc.assert(
      fc.property(fc.array(stageName, { minLength: 1, maxLength: 9 }), fc.nat(), (names, cut) => {
        const lines = summaryBlock({
          totalS: 12.5,
          stages: names.map((name) => ({ name, durationS: 1 })),
          sequences: 3,
        })
        expect(parseLines(lines.slice(0, cut % lines.length))).toEqual([])
      }),
    )
  })
})

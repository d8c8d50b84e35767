import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { parseGroupedNumber, splitLogLine } from '../../src/pipeline/log-line.ts'
import { pyGrouped } from './support/upstream-format.ts'

describe('splitLogLine', () => {
  test('splits the main-process prefix', () => {
    expect(splitLogLine('2026-11-22 10:00:00 - virnucpro.cli - WARNING - low memory')).toEqual({
      timestamp: '2026-11-22 10:00:00',
      worker: null,
      logger: 'virnucpro.cli',
      level: 'WARNING',
      message: 'low memory',
    })
  })

  test('reads the worker rank of a v2 worker line, with milliseconds', () => {
    expect(splitLogLine('2026-11-22 10:00:00,123 - Worker 3 - virnucpro.w - INFO - hi')).toMatchObject({
      worker: 3,
      logger: 'virnucpro.w',
      message: 'hi',
    })
  })

  test('keeps the message leading spaces after the prefix', () => {
    expect(splitLogLine('2026-11-22 10:00:00 - x - INFO -   A completed in 1.0s').message).toBe('  A completed in 1.0s')
  })

  test('a line without a prefix is all message', () => {
    expect(splitLogLine('Traceback (most recent call last):')).toMatchObject({
      logger: null,
      message: 'Traceback (most recent call last):',
    })
  })

  test('never throws and always returns the message text it was given', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(splitLogLine(s).message.length).toBeLessThanOrEqual(s.length)
      }),
    )
  })
})

describe('parseGroupedNumber', () => {
  test('any integer printed with {:,} parses back', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), (n) => {
        expect(parseGroupedNumber(pyGrouped(n))).toBe(n)
      }),
    )
  })

  test('any tenth printed with {:.1f} parses back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e9 }), (t) => {
        expect(parseGroupedNumber((t / 10).toFixed(1))).toBe(t / 10)
      }),
    )
  })

  test.each(['', 'nan', '1,23', '12,', 'v2.0', '1 000'])('rejects %j', (text) => {
    expect(parseGroupedNumber(text)).toBeNull()
  })
})

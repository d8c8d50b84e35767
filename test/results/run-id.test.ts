import fc from 'fast-check'
import { expect, test } from 'vitest'
import { isRunId, makeRunId } from '../../src/results/run-id.ts'

test('a run ID is the UTC start second plus a suffix', () => {
  expect(makeRunId(new Date('2026-11-21T23:56:57.123Z'), 'ab12')).toBe('2026-11-21T23-56-57Z-ab12')
})

test('run IDs are recognised, sort by start time and are safe in file names', () => {
  const dates = fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
  fc.assert(
    fc.property(dates, dates, (a, b) => {
      const idA = makeRunId(a, '0000')
      const idB = makeRunId(b, '0000')
      expect(isRunId(idA)).toBe(true)
      expect(idA).not.toMatch(/[/:\\ ]/)
      const secondsA = Math.floor(a.getTime() / 1000)
      const secondsB = Math.floor(b.getTime() / 1000)
      if (secondsA !== secondsB) expect(idA < idB).toBe(secondsA < secondsB)
    }),
  )
})

test('two IDs made in the same second differ', () => {
  const now = new Date()
  expect(makeRunId(now)).not.toBe(makeRunId(now))
})

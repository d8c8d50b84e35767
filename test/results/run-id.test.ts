import fc from 'fast-check'
import { expect, test } from 'vitest'
import { isRunId, makeRunId, runIdDate } from '../../src/results/run-id.ts'

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

test('property: the date a run ID carries is its start second; a name that is no run ID has none', () => {
  const dates = fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
  fc.assert(
    fc.property(dates, (date) => {
      expect(runIdDate(makeRunId(date, 'ab12'))?.getTime()).toBe(Math.floor(date.getTime() / 1000) * 1000)
    }),
  )
  for (const name of ['2026-11-26T15:00:00Z-ef56', '2026-13-45T99-99-99Z-ab12', 'reports', '..'])
    expect(runIdDate(name), name).toBeNull()
})

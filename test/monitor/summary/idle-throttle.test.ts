import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { IDLE_UTIL_PCT, idleProfile } from '../../../src/monitor/summary/idle-throttle.ts'
import { sample } from '../support/records.ts'

const STEP_MS = 100

/** Samples every 100 ms from t = 0 with these utilizations (null: no reading). */
const series = (utils: (number | null)[]) => utils.map((utilPct, i) => sample(0, i * STEP_MS, { utilPct }))
const windowOf = (n: number) => [{ stage: 'infer', startMs: 0, endMs: n * STEP_MS }]

/**
 * Plain oracle over a string of sample kinds (i idle, b busy, n no reading): maximal runs of `i`; a run is inner when a
 * `b` comes before it and right after it; leading is the time to the first `b` (the window when there is none).
 */
function oracle(utils: (number | null)[]) {
  const kinds = utils.map((u) => (u === null ? 'n' : u < IDLE_UTIL_PCT ? 'i' : 'b')).join('')
  const runs = [...kinds.matchAll(/i+/g)].map((m) => {
    const start = m.index
    const end = start + m[0].length
    return { samples: m[0].length, start, inner: kinds.slice(0, start).includes('b') && kinds[end] === 'b', end }
  })
  const longestOf = (list: typeof runs) =>
    list.reduce<(typeof runs)[number] | null>((best, r) => (!best || r.samples > best.samples ? r : best), null)
  const asRun = (r: (typeof runs)[number] | null) =>
    r && { samples: r.samples, startMs: r.start * STEP_MS, durationMs: (r.end - r.start) * STEP_MS }
  const firstBusy = kinds.indexOf('b')
  const anyReading = /[ib]/.test(kinds)
  return {
    longest: asRun(longestOf(runs)),
    longestInner: asRun(longestOf(runs.filter((r) => r.inner))),
    leadingMs: firstBusy >= 0 ? firstBusy * STEP_MS : anyReading ? utils.length * STEP_MS : null,
    busySpanMs: firstBusy >= 0 ? (kinds.lastIndexOf('b') - firstBusy) * STEP_MS : null,
  }
}

describe('idle profile: start-up apart from gaps between work', () => {
  test('the H200 DNABERT-S shape: a long start, back-to-back work, a short gap, a tail', () => {
    const profile = idleProfile(series([0, 1, 0, 0, 99, 99, 5, 99, 99, 0, 0, 0]), windowOf(12))
    expect(profile.leadingMs).toBe(400)
    expect(profile.longestInner).toEqual({ samples: 1, startMs: 600, durationMs: 100 })
    // The longest run overall is the start (4 samples), then the tail (3): neither is a gap between batches.
    expect(profile.longest).toEqual({ samples: 4, startMs: 0, durationMs: 400 })
    // The work: from the first busy sample to the last, the short gap inside it included, start and tail left out.
    expect(profile.busySpanMs).toBe(400)
  })

  test('a window with no work is all start-up; no readings at all is unknown', () => {
    expect(idleProfile(series([0, 0, 0]), windowOf(3))).toEqual({
      longest: { samples: 3, startMs: 0, durationMs: 300 },
      longestInner: null,
      leadingMs: 300,
      busySpanMs: null,
    })
    expect(idleProfile(series([null, null]), windowOf(2)).leadingMs).toBeNull()
  })

  test('a missing reading ends an idle run, and a run ended that way is not inner', () => {
    const profile = idleProfile(series([99, 0, 0, null, 99]), windowOf(5))
    expect(profile.longest).toEqual({ samples: 2, startMs: 100, durationMs: 200 })
    expect(profile.longestInner).toBeNull()
  })

  test('matches the plain oracle on any series', () => {
    const util = fc.option(fc.constantFrom(0, 5, 9.9, 10, 50, 100), { nil: null })
    fc.assert(
      fc.property(fc.array(util, { maxLength: 40 }), (utils) => {
        expect(idleProfile(series(utils), windowOf(utils.length))).toEqual(oracle(utils))
      }),
    )
  })
})

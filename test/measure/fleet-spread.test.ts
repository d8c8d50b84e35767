import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { MeasureInputError } from '../../src/measure/errors.ts'
import { judgeFleetSpread } from '../../src/measure/fleet-spread.ts'

const EFFECT = 0.1

/** Runs around `centre` within +-`jitter` (relative), 2-6 of them. */
const runsNear = (centre: number, jitter: number) =>
  fc.array(
    fc.double({ min: -jitter, max: jitter, noNaN: true }).map((d) => centre * (1 + d)),
    { minLength: 2, maxLength: 6 },
  )

/** 3-9 hosts whose runs all lie within +-0.5% of 100. */
const alikeFleet = fc
  .array(runsNear(100, 0.005), { minLength: 3, maxLength: 9 })
  .map((hosts) => hosts.map((values, i) => ({ host: `node-${i}`, values })))

const verdicts = (hosts: ReturnType<typeof judgeFleetSpread>['hosts']) =>
  Object.fromEntries(hosts.map((h) => [h.host, h.verdict]))

describe('judgeFleetSpread (bad nodes)', () => {
  test('a planted slow host (runs at half the rate) is flagged slower; the others pass', () => {
    fc.assert(
      fc.property(alikeFleet, runsNear(50, 0.005), (fleet, slow) => {
        const result = judgeFleetSpread([...fleet, { host: 'bad', values: slow }], { minRelativeEffect: EFFECT })
        const bad = result.hosts.find((h) => h.host === 'bad')!
        expect(bad.verdict).toBe('flag')
        expect(bad.direction).toBe('slower')
        expect(result.hosts.filter((h) => h.host !== 'bad').every((h) => h.verdict === 'pass')).toBe(true)
      }),
    )
  })

  test('hosts that differ by less than the effect that matters are never flagged, whatever their spread', () => {
    const fleet = fc
      .array(runsNear(100, EFFECT / 2.2), { minLength: 3, maxLength: 9 })
      .map((hosts) => hosts.map((values, i) => ({ host: `n${i}`, values })))
    fc.assert(
      fc.property(fleet, (hosts) => {
        const result = judgeFleetSpread(hosts, { minRelativeEffect: EFFECT })
        expect(result.hosts.some((h) => h.verdict === 'flag')).toBe(false)
      }),
    )
  })

  test('the same verdicts whatever the hosts order or the unit (a positive scale of every value)', () => {
    fc.assert(
      fc.property(
        alikeFleet,
        runsNear(50, 0.2),
        fc.double({ min: 1e-3, max: 1e3, noNaN: true }),
        fc.integer({ min: 0, max: 1000 }),
        (fleet, extra, scale, rotation) => {
          const hosts = [...fleet, { host: 'extra', values: extra }]
          const expected = verdicts(judgeFleetSpread(hosts, { minRelativeEffect: EFFECT }).hosts)
          const k = rotation % hosts.length
          const rotated = [...hosts.slice(k), ...hosts.slice(0, k)]
          expect(verdicts(judgeFleetSpread(rotated, { minRelativeEffect: EFFECT }).hosts)).toEqual(expected)
          const scaled = hosts.map((h) => ({ ...h, values: h.values.map((v) => v * scale) }))
          expect(verdicts(judgeFleetSpread(scaled, { minRelativeEffect: EFFECT }).hosts)).toEqual(expected)
        },
      ),
    )
  })

  test('fewer than three hosts: no verdict for any, and the reason says so', () => {
    fc.assert(
      fc.property(fc.array(runsNear(100, 0.5), { minLength: 1, maxLength: 2 }), (runs) => {
        const result = judgeFleetSpread(
          runs.map((values, i) => ({ host: `h${i}`, values })),
          { minRelativeEffect: EFFECT },
        )
        for (const h of result.hosts) {
          expect(h.verdict).toBe('inconclusive')
          expect(h.reason).toMatch(
            /^no verdict: \d host\(s\) of this GPU model measured it; a fleet spread needs >= 3$/,
          )
        }
      }),
    )
  })

  test('one slow run on a host is not a bad node: its runs must agree', () => {
    const result = judgeFleetSpread(
      [
        { host: 'a', values: [100, 101, 99] },
        { host: 'b', values: [100, 100.5, 99.5] },
        { host: 'c', values: [100.2, 99.8, 100] },
        { host: 'd', values: [40, 101, 100] },
      ],
      { minRelativeEffect: EFFECT },
    )
    expect(result.hosts.find((h) => h.host === 'd')?.verdict).toBe('pass')
    const single = judgeFleetSpread(
      [
        { host: 'a', values: [100, 101] },
        { host: 'b', values: [100, 100.5] },
        { host: 'c', values: [100.2, 99.8] },
        { host: 'd', values: [40] },
      ],
      { minRelativeEffect: EFFECT },
    )
    const d = single.hosts.find((h) => h.host === 'd')!
    expect(d.verdict).toBe('inconclusive')
    expect(d.reason).toMatch(/one run: no CI of its own/)
  })

  test('the run-to-run spread floors the scale: hosts that agree by chance do not make noise a flag', () => {
    // Host medians agree to 0.1%, but each host's runs spread +-15%: a host 12% off is within that noise.
    const noisy = (m: number) => [m * 0.85, m, m * 1.15]
    const result = judgeFleetSpread(
      [
        { host: 'a', values: noisy(100) },
        { host: 'b', values: noisy(100.1) },
        { host: 'c', values: noisy(99.9) },
        { host: 'd', values: noisy(88) },
      ],
      { minRelativeEffect: EFFECT },
    )
    expect(result.scaleFrom).toBe('runs')
    expect(result.hosts.find((h) => h.host === 'd')?.verdict).not.toBe('flag')
  })

  test('bad input is named', () => {
    expect(() => judgeFleetSpread([{ host: 'a', values: [] }], { minRelativeEffect: EFFECT })).toThrow(
      MeasureInputError,
    )
    expect(() => judgeFleetSpread([{ host: 'a', values: [0, 1] }], { minRelativeEffect: EFFECT })).toThrow(
      /host a values: must all be positive/,
    )
    expect(() =>
      judgeFleetSpread(
        [
          { host: 'a', values: [1] },
          { host: 'a', values: [2] },
        ],
        { minRelativeEffect: EFFECT },
      ),
    ).toThrow(/unique/)
  })
})

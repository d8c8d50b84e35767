/**
 * Known-answer study of detectChangePoints (issue 19), the figures stated in src/measure/README.md: seeded synthetic
 * histories of 100 commits at CV 2% (normal noise), 1 or 3 runs a commit, a step of 3%, 5% or 10% planted at a commit
 * drawn from 20..80 (up in even trials, down in odd ones) or none; 200 trials a step size, 1,000 without a step. Every history is judged at three
 * thresholds. A step is detected when a change lies within +-1 commit of it, in its direction; every other change is a
 * false one. CHANGE_POINT_STUDY=1 prints the table.
 */
import { describe, expect, test } from 'vitest'
import { detectChangePoints } from '../../src/measure/change-points.ts'
import { createRandomSource } from '../../src/measure/rng.ts'
import { standardNormal } from './support/simulate.ts'

/** Trials per step size; stable histories are cheap and their false-change rate is the figure most asked for. */
const TRIALS = 200
const STABLE_TRIALS = 1000
const COMMITS = 100
const CV = 0.02
const THRESHOLDS = [0.1, 0.05, 0.02] as const

interface Rates {
  /** Share of trials whose step was found at its commit +-1, in its direction. */
  detected: number
  /** False changes per 100 commits. */
  falsePer100: number
}

function simulateHistory(random: () => number, runs: number, step: number, at: number, sign: number) {
  const values: number[] = []
  const keys: string[] = []
  for (let c = 0; c < COMMITS; c++) {
    for (let r = 0; r < runs; r++) {
      values.push(100 * (c >= at ? 1 + sign * step : 1) * (1 + CV * standardNormal(random)))
      keys.push(`commit-${c}`)
    }
  }
  return { values, keys }
}

/** Rates at each threshold over the same TRIALS histories. */
function study(runs: number, step: number): Record<(typeof THRESHOLDS)[number], Rates> {
  const random = createRandomSource(`change-points-study/${runs}/${step}`)
  const trials = step === 0 ? STABLE_TRIALS : TRIALS
  const counts = THRESHOLDS.map(() => ({ detected: 0, false: 0 }))
  for (let trial = 0; trial < trials; trial++) {
    const at = 20 + Math.floor(random() * 61)
    const sign = trial % 2 === 0 ? 1 : -1
    const { values, keys } = simulateHistory(random, runs, step, at, sign)
    THRESHOLDS.forEach((minRelativeEffect, t) => {
      const options = { minRelativeEffect, better: 'lower' as const, random: createRandomSource(`trial-${trial}`) }
      let matched = false
      for (const change of detectChangePoints(values, keys, options)) {
        const commit = Number(change.toKey.slice('commit-'.length))
        const hit = step > 0 && !matched && Math.abs(commit - at) <= 1 && Math.sign(change.relativeChange) === sign
        if (hit) matched = true
        else counts[t]!.false++
      }
      if (matched) counts[t]!.detected++
    })
  }
  const rates = counts.map((c) => ({
    detected: c.detected / trials,
    falsePer100: (c.false / trials) * (100 / COMMITS),
  }))
  if (process.env.CHANGE_POINT_STUDY) console.log(JSON.stringify({ runs, step, rates }))
  return { 0.1: rates[0]!, 0.05: rates[1]!, 0.02: rates[2]! }
}

describe.each([{ runs: 1 }, { runs: 3 }])('CV 2 percent, 100 commits, $runs run(s) a commit', ({ runs }) => {
  test('no step: no false change at a 10% threshold, <= 0.01 per 100 commits at 5%, <= 0.05 at 2%', () => {
    const rates = study(runs, 0)
    expect(rates[0.1].falsePer100).toBe(0)
    expect(rates[0.05].falsePer100).toBeLessThanOrEqual(0.01)
    expect(rates[0.02].falsePer100).toBeLessThanOrEqual(0.05)
  })

  test('10% steps are found at their commit +-1 in >= 99% of trials at every threshold, 10% included', () => {
    const rates = study(runs, 0.1)
    for (const t of THRESHOLDS) expect(rates[t].detected).toBeGreaterThanOrEqual(0.99)
    expect(rates[0.1].falsePer100).toBe(0)
  })

  test('5% steps: never reported at 10%, found in >= 90% at 5% (the threshold itself) and at 2%', () => {
    const rates = study(runs, 0.05)
    expect(rates[0.1].detected + rates[0.1].falsePer100).toBe(0)
    expect(rates[0.05].detected).toBeGreaterThanOrEqual(0.9)
    expect(rates[0.02].detected).toBeGreaterThanOrEqual(0.9)
  })

  test('3% steps: never reported at 10%; at 2% found, and placed +-1 commit far more often with 3 runs', () => {
    const rates = study(runs, 0.03)
    expect(rates[0.1].detected + rates[0.1].falsePer100).toBe(0)
    expect(rates[0.02].detected).toBeGreaterThanOrEqual(runs === 3 ? 0.9 : 0.6)
  })
})

import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { planKey, unsortedSettings, WORK_SETTINGS } from '../../../src/engine/invocation-progress/plan-key.ts'
import { keyDifferences } from '../../../src/results/run-key.ts'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'

describe("an invocation's plan: what decides how much work it does", () => {
  test('every setting the suite reads is sorted: one that changes the work, or one that does not', () => {
    expect(unsortedSettings()).toEqual([])
  })

  test('sizes, budget, stop rule, run counts, the parts asked for and the command line each make another plan', () => {
    const args = ['run', '--project', 'gpu']
    const base = planKey({}, args)
    expect(
      keyDifferences(
        base,
        planKey({ VIRNUCPRO_BENCH_RESULTS_DIR: '/elsewhere', VIRNUCPRO_BENCH_RUN_ID: 'pin1' }, args),
      ),
    ).toEqual([])
    for (const name of WORK_SETTINGS)
      expect(keyDifferences(base, planKey({ [name]: '7' }, args)), name).toEqual([`settings.${name} (was null, now 7)`])
    expect(keyDifferences(base, planKey({}, [...args, '-t', 'capacity']))).not.toEqual([])
  })

  test('the thresholds file by its bytes, not its path', () => {
    const dir = tempDirUntilFileEnd('plan-key-')
    const [a, b] = [join(dir, 'a.json'), join(dir, 'b.json')]
    writeFileSync(a, '{"perf01":{"maxHours":10}}')
    writeFileSync(b, '{"perf01":{"maxHours":10}}')
    const of = (file: string) => planKey({ VIRNUCPRO_BENCH_THRESHOLDS: file }, [])
    expect(keyDifferences(of(a), of(b))).toEqual([])
    writeFileSync(b, '{"perf01":{"maxHours":5}}')
    expect(keyDifferences(of(a), of(b))).toEqual([expect.stringMatching(/^thresholds \(was \w{12}, now \w{12}\)$/)])
  })
})

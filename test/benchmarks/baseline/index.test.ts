// A bench run judged against this machine (benchmarks/support/baseline/index.ts): a machine without a baseline passes
// and saves one, passing runs fill it, a planted run never saves, `save` starts anew, a bad file is named.
import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { judgeOnThisMachine, type MeasuredRun } from '../../../benchmarks/support/baseline/index.ts'
import type { MachineKey } from '../../../benchmarks/support/baseline/machine.ts'
import { BASELINE_MODE_ENV } from '../../../benchmarks/support/baseline/mode.ts'
import { BASELINE_DIR_ENV, type Baseline, BaselineFileError } from '../../../benchmarks/support/baseline/store.ts'
import { BASELINE_RUNS } from '../../../benchmarks/support/baseline/verdict.ts'
import { PLANT_ENV } from '../../../benchmarks/support/planted-slowdown.ts'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'

const machine: MachineKey = { cpuModel: 'Test CPU', cores: 2, node: 'v24.0.0' }
const BENCH = 'parse'

/** A run whose subject costs `subject` ms a pair and its calibration `calibration` ms (a little spread). */
const run = (subject: number, calibration = 100, judgeOn: 'cpu' | 'wall' = 'cpu'): MeasuredRun => ({
  judgeOn,
  subjectCosts: [subject * 0.99, subject, subject * 1.01],
  calibrationCosts: [calibration * 1.01, calibration, calibration * 0.99],
})

function setup(extra: NodeJS.ProcessEnv = {}) {
  const env = { [BASELINE_DIR_ENV]: tempDirUntilFileEnd('baseline-judge-'), ...extra }
  const judge = (r: MeasuredRun, more: NodeJS.ProcessEnv = {}) =>
    judgeOnThisMachine(BENCH, r, { env: { ...env, ...more }, machine, revision: 'abc123' })
  return { env, judge }
}

describe('judgeOnThisMachine', () => {
  test('no baseline of this machine: the run passes, however its figures read, and is saved as the first run', async () => {
    const { judge } = setup()
    const first = await judge(run(10_000))
    expect(first).toMatchObject({ baseline: 'saved', verdict: null, runs: 1 })
    expect(first.message).toMatch(
      /^no baseline of this machine \(Test CPU, 2 cores, Node v24\.0\.0\) yet: passed, and saved/,
    )
    expect(first.message).toContain(`1 of ${BASELINE_RUNS} runs`)
    const saved = JSON.parse(readFileSync(first.path, 'utf8')) as Baseline
    expect(saved).toMatchObject({ format: 1, machine, bench: BENCH })
    expect(saved.runs).toHaveLength(1)
    expect(saved.runs[0]).toMatchObject({ revision: 'abc123', judgeOn: 'cpu', subjectCosts: run(10_000).subjectCosts })
  })

  test(`passing runs join it until it holds ${BASELINE_RUNS}; later ones are judged and leave it as it is`, async () => {
    const { judge } = setup()
    await judge(run(250))
    for (let n = 2; n <= BASELINE_RUNS; n++) {
      const next = await judge(run(250 * (1 + 0.01 * (n % 3))))
      expect(next).toMatchObject({ baseline: 'joined', runs: n, verdict: { verdict: 'pass' } })
      expect(next.message).toContain(`joined it (${n} of ${BASELINE_RUNS} runs)`)
    }
    const later = await judge(run(252))
    expect(later).toMatchObject({ baseline: 'kept', runs: BASELINE_RUNS, verdict: { verdict: 'pass' } })
    const slower = await judge(run(250 * 1.3))
    expect(slower).toMatchObject({ baseline: 'kept', runs: BASELINE_RUNS, verdict: { verdict: 'fail' } })
    expect(slower.message).toMatch(/: FAIL, slower than its baseline/)
  })

  test('a failing run does not join the baseline', async () => {
    const { judge } = setup()
    await judge(run(100))
    const slower = await judge(run(1_000))
    expect(slower).toMatchObject({ baseline: 'kept', runs: 1, verdict: { verdict: 'fail', judgedBy: 'both' } })
  })

  test('a planted run is judged like any other and never saves or joins a baseline', async () => {
    const { judge } = setup()
    const planted = { [PLANT_ENV]: '30' }
    const none = await judge(run(100), planted)
    expect(none).toMatchObject({ baseline: 'not-saved', verdict: null, runs: 0 })
    expect(none.message).toMatch(/passed; a planted run saves no baseline/)
    expect(() => readFileSync(none.path)).toThrow(/ENOENT/)
    await judge(run(100))
    const judged = await judge(run(101), planted)
    expect(judged).toMatchObject({ baseline: 'kept', runs: 1 })
  })

  test(`${BASELINE_MODE_ENV}=1 starts a new baseline from this run`, async () => {
    const { judge } = setup()
    await judge(run(100))
    await judge(run(101))
    const fresh = await judge(run(500), { [BASELINE_MODE_ENV]: '1' })
    expect(fresh).toMatchObject({ baseline: 'replaced', verdict: null, runs: 1 })
    expect((JSON.parse(readFileSync(fresh.path, 'utf8')) as Baseline).runs[0]!.subjectCosts).toEqual(
      run(500).subjectCosts,
    )
    await expect(judge(run(100), { [BASELINE_MODE_ENV]: 'keep' })).rejects.toThrow(
      `${BASELINE_MODE_ENV} must be unset, 0 or 1 (start a new baseline), got 'keep'`,
    )
  })

  test('a corrupt baseline fails the bench, naming the file; it is left as it was', async () => {
    const { judge } = setup()
    const first = await judge(run(100))
    writeFileSync(first.path, '{"format": 1, "runs": [')
    const error = await judge(run(100)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BaselineFileError)
    expect((error as Error).message).toContain(`bench baseline ${first.path}: not JSON`)
    expect(readFileSync(first.path, 'utf8')).toBe('{"format": 1, "runs": [')
  })

  test('a baseline saved when the bench judged another kind of time is named, not compared', async () => {
    const { judge } = setup()
    await judge(run(100, 100, 'wall'))
    await expect(judge(run(100))).rejects.toThrow(/judged wall time, it now judges cpu time; start a new baseline/)
  })
})

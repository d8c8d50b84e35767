// The history's known answer on the CPU (the GPU twin: benchmarks/validation/history/history.gpu.test.ts): a real git
// checkout whose fifth commit adds `--inject cpu-stall-ms` to the reference pipeline (tiny scale, TINY fixture, fake
// NVML scripted), one stage record a night at its commit, 3 runs a night (a night before the step that reads far off
// the others measured again, once); then the nights added to a fresh SQLite
// history one by one and judged after each, as the nightly job does. The stall is sized from the nights before it, as
// this machine measured them (STEP_RATIO of their median night). Asserted: quiet before the step; a suspect the night
// it lands and a failing gate the next night, naming its commits; a change point at that commit, confirmed within
// three nights.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { readResultRecords } from '../../src/results/store.ts'
import {
  confirmedNight,
  findingsOn,
  measureNights,
  medianOfNights,
  type NightJudgement,
  nightLines,
  replayNights,
} from '../../src/validation/history-nights.ts'
import { appendStep, createPlainTarget, type SteppedTarget } from '../../src/validation/history-target.ts'
import { cpuConfig, fakeGpu, scripted, tinyInput } from '../suites/support/cpu-suite.ts'
import { referencePipelineOnCpu } from '../support/reference-pipeline.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const NIGHTS = 10
const STEP_AT = 5
const RUNS = 3
/**
 * The stall, as a share of a night's median wall time before it. A fixed 1,500 ms stall read +70-116% on this machine
 * but +31% on the CI VM of the landing CI of 0fd7b2c, whose nights ran slower: below the threshold, so the night it
 * landed read nothing and the gate then named a later night's noise. Sized from the machine's own nights, the step is
 * about +120% wherever it runs (a stall of 1x read +83-119%), 2.4x the threshold.
 */
const STEP_RATIO = 1.2
/** The least stall, for a machine so fast that a night is mostly start-up noise. */
const MIN_STALL_MS = 1000
/**
 * The gate's smallest regression, as a host sets it in its thresholds file. The stall more than doubles a night's wall
 * time (STEP_RATIO), and the known answer is that the gate finds that step at its commit and nowhere else. A night
 * before the step can read slow by itself: at the default 10%, 3 of 5 clean-clone runs on a busy 2-core CI VM had one
 * 10% slow; at 40%, one clean-clone run of af51dea had night 4 read +42.9% (a suspect), so the stall's first night read
 * as the second of two and failed instead of being a suspect. 50% keeps the step 2.4x the threshold and the threshold
 * above the slowest night seen before a step.
 */
const REGRESSION_THRESHOLD = 0.5

const ready = await referencePipelineOnCpu()
const root = tempDirUntilFileEnd('history-known-answer-')
let target: SteppedTarget
let nights: NightJudgement[] = []
let runDirs: string[] = []
let baseNightMs = 0
let stallMs = 0
/** The nights before the step measured again, and why. */
const remeasured: string[] = []
const METRIC = 'wall/1 CPU'
const wall = (n: NightJudgement) => findingsOn(n, METRIC)

describe.skipIf(ready.state !== 'ready')('history known answer on the CPU', () => {
  beforeAll(async () => {
    target = await createPlainTarget(join(root, 'target'), STEP_AT)
    const thresholds = join(root, 'thresholds.json')
    writeFileSync(thresholds, JSON.stringify({ regression: { timeThreshold: REGRESSION_THRESHOLD } }))
    const input = await tinyInput()
    const measure = (fromNight: number, toNight?: number, again = '') =>
      measureNights({
        target,
        fromNight,
        toNight,
        resultsRoot: join(root, 'results'),
        runIdOf: (night) => `night-${night}${again}`,
        measureOf: (night) => scripted([fakeGpu(90)], RUNS, night === 0 ? 1 : 0, input),
        config: cpuConfig('1 CPU'),
        settings: { VIRNUCPRO_BENCH_THRESHOLDS: thresholds },
      })
    const before = await measure(0)
    // A night before the step that reads far off the others (half the threshold) is measured again, once: this VM has
    // read a whole night +50.9% slow with nothing else running (a clean-clone CI of 4c41aac), and such a night just
    // before the step makes the stall's first night the second of two. The known answer is the gate on a step, not on
    // a burst of the machine's; a night still off after its second measurement stays, and the checks below judge it.
    // The history orders runs by when they were made, so the nights from the first one off to the step are measured
    // again together, in order.
    const figures = await Promise.all(before.map((dir) => medianOfNights([dir], METRIC)))
    const mid = [...figures].sort((a, b) => a - b)[Math.floor(figures.length / 2)]!
    const off = figures.findIndex((ms) => Math.abs(ms / mid - 1) > REGRESSION_THRESHOLD / 2)
    if (off >= 0) {
      const read = `${Math.round(figures[off]!)} ms against the nights' median ${Math.round(mid)} ms`
      remeasured.push(`nights ${off}-${STEP_AT - 1}: night ${off} read ${read}`)
      before.splice(off, Infinity, ...(await measure(off, STEP_AT, '-again')))
    }
    baseNightMs = await medianOfNights(before, METRIC)
    stallMs = Math.max(MIN_STALL_MS, Math.round(STEP_RATIO * baseNightMs))
    await appendStep(target, NIGHTS - STEP_AT, `cpu-stall-ms=${stallMs}`)
    runDirs = [...before, ...(await measure(STEP_AT))]
    nights = await replayNights(join(root, 'history.sqlite'), runDirs)
  }, 600_000)

  test("every night is a record at its own commit of the checkout, judged by the host's threshold", async () => {
    expect(nights.map((n) => n.runId.replace(/-again$/, ''))).toEqual(
      Array.from({ length: NIGHTS }, (_, i) => `night-${i}`),
    )
    // Only nights before the step are ever measured again.
    expect(nights.slice(STEP_AT).filter((n) => n.runId.endsWith('-again'))).toEqual([])
    expect(new Set(target.commits).size).toBe(NIGHTS)
    const { records } = await readResultRecords(runDirs[0]!)
    expect(records.map((r) => r.thresholds.regression.timeThreshold)).toEqual(records.map(() => REGRESSION_THRESHOLD))
    expect(records.length).toBeGreaterThan(0)
  })

  test('before the step: nothing to fail on in what the runs measure', () => {
    // Wall times and stage rates come from the runs. Energy and utilization here come from the scripted fake NVML:
    // utilization is the script's, and energy the script's power times the run's time (a copy of wall time, not a
    // reading of its own): series of the script, not of the pipeline, and left out of this check.
    const measured = (r: { metric: string }) => r.metric.startsWith('wall/') || r.metric.startsWith('rate/')
    expect(nights.slice(0, STEP_AT).flatMap((n) => n.regressions.filter(measured))).toEqual([])
  })

  test('the night the stall lands: a suspect in wall time; the next night the gate fails on it, naming the commit before it and its own', () => {
    const range = { fromCommit: target.commits[STEP_AT - 1], toCommit: target.commits[STEP_AT] }
    expect(wall(nights[STEP_AT]!)).toEqual([])
    expect(nights[STEP_AT]!.suspects.filter((r) => r.metric === METRIC)).toEqual([
      expect.objectContaining({ how: 'newest-vs-window', ...range, pointsRegressed: 1 }),
    ])
    expect(wall(nights[STEP_AT + 1]!)).toEqual([
      expect.objectContaining({ how: 'newest-vs-window', ...range, pointsRegressed: 2 }),
    ])
  })

  test('a change point at that commit, confirmed within three nights, the same commit range', ({ annotate }) => {
    const confirmed = confirmedNight(nights, METRIC)
    annotate(`nights before the step: median ${Math.round(baseNightMs)} ms; the step: cpu-stall-ms=${stallMs}`)
    for (const line of remeasured) annotate(`measured again: ${line}`)
    for (const line of nightLines(nights, METRIC)) annotate(line)
    expect(confirmed).toBeGreaterThanOrEqual(STEP_AT + 2)
    expect(confirmed).toBeLessThanOrEqual(STEP_AT + 4)
    expect(wall(nights[confirmed]!).find((r) => r.how === 'change-point')).toMatchObject({
      fromCommit: target.commits[STEP_AT - 1],
      toCommit: target.commits[STEP_AT],
    })
    const last = nights.at(-1)!.changes.filter((c) => c.metric === METRIC)
    expect(last).toEqual([expect.objectContaining({ toKey: target.commits[STEP_AT], regression: true })])
    expect(last[0]!.relativeChange).toBeGreaterThan(REGRESSION_THRESHOLD)
  })
})

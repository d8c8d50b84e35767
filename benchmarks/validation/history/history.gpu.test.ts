/**
 * The history's known answer on a GPU (issue 19; its CPU twin runs in CI: test/validation/history-known-answer.test.ts):
 * a real git checkout of a `virnucpro` shim over the reference pipeline (full scale) whose commit HISTORY_STEP_AT adds
 * `--inject cpu-stall-ms=HISTORY_STALL_MS` (src/validation/history-target.ts); one stage record a night on GPU 0 at
 * that night's commit, HISTORY_RUNS runs a night (one warm-up before the first); then the nights added to a fresh
 * SQLite history one by one and judged after each, as the nightly job does. Asserted: the gate quiet before the step
 * (a one-night suspect may show: host noise); a suspect the night the slowdown lands and a failing gate the next
 * night, naming its commits; a change point at that commit, confirmed within three nights. Every night's gate
 * findings and suspects are printed as annotations.
 * GPU machine: VIRNUCPRO_BENCH_VALIDATION=1 npx vitest run --project gpu benchmarks/validation/history
 */
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  confirmedNight,
  findingsOn,
  measureNights,
  type NightJudgement,
  nightLines,
  replayNights,
} from '../../../src/validation/history-nights.ts'
import { createSteppedTarget, type SteppedTarget } from '../../../src/validation/history-target.ts'
import {
  HISTORY_NIGHTS,
  HISTORY_RECORDS,
  HISTORY_RUNS,
  HISTORY_STALL_MS,
  HISTORY_STEP_AT,
  ONCE,
} from '../../../src/validation/scenarios.ts'
import { gpuAvailable } from '../../support/gpu.ts'
import { validationAsked } from '../../support/main-job.ts'
import { createRunContext } from '../../support/run-context.ts'
import { mediumInput } from '../support.ts'

let target: SteppedTarget
let nights: NightJudgement[] = []
const METRIC = 'wall/1 GPU'
const wall = (n: NightJudgement) => findingsOn(n, METRIC)

describe('history known answer on a GPU', () => {
  beforeAll(async () => {
    if (!gpuAvailable() || !validationAsked()) return
    const rc = await createRunContext(1)
    const root = join(rc.ctx.resultsDir, 'history-known-answer')
    target = await createSteppedTarget(join(root, 'target'), {
      nights: HISTORY_NIGHTS,
      stepAt: HISTORY_STEP_AT,
      inject: `cpu-stall-ms=${HISTORY_STALL_MS}`,
    })
    const input = await mediumInput(HISTORY_RECORDS)
    const measure = (night: number) => ({
      ...rc.measure(input),
      policy: { ...ONCE, warmupRuns: night === 0 ? 1 : 0, minRuns: HISTORY_RUNS, maxRuns: HISTORY_RUNS },
    })
    const dirs = await measureNights({
      target,
      resultsRoot: join(root, 'results'),
      runIdOf: (night) => `${rc.ctx.runId}-night-${night}`,
      measureOf: measure,
      config: rc.configs.base([0]),
    })
    nights = await replayNights(join(root, 'history.sqlite'), dirs)
  }, 1_200_000)

  test('quiet before the step; a suspect the night the slowdown lands, the gate failing the next, naming its commits', ({
    annotate,
  }) => {
    for (const line of nightLines(nights, METRIC)) annotate(line)
    expect(nights).toHaveLength(HISTORY_NIGHTS)
    expect(nights.slice(0, HISTORY_STEP_AT).flatMap((n) => n.regressions)).toEqual([])
    const range = { fromCommit: target.commits[HISTORY_STEP_AT - 1], toCommit: target.commits[HISTORY_STEP_AT] }
    expect(wall(nights[HISTORY_STEP_AT]!)).toEqual([])
    expect(nights[HISTORY_STEP_AT]!.suspects.filter((r) => r.metric === METRIC)).toEqual([
      expect.objectContaining({ how: 'newest-vs-window', ...range }),
    ])
    expect(wall(nights[HISTORY_STEP_AT + 1]!)).toEqual([
      expect.objectContaining({ how: 'newest-vs-window', ...range, pointsRegressed: 2 }),
    ])
  })

  test('a change point at that commit, confirmed within three nights, what moved with it', ({ annotate }) => {
    const confirmed = confirmedNight(nights, METRIC)
    const last = nights.at(-1)!.changes.filter((c) => c.metric === METRIC)
    annotate(
      `history: change confirmed on night ${confirmed}; at the end ${last.map((c) => `${c.metric} ${(c.relativeChange * 100).toFixed(1)}% p ${c.pValue.toPrecision(2)} at ${c.toKey.slice(0, 7)}, moved with it: ${c.movedWith.map((m) => `${m.metric} ${(m.relativeChange * 100).toFixed(1)}%`).join(', ')}`).join('; ')}`,
    )
    expect(confirmed).toBeGreaterThanOrEqual(HISTORY_STEP_AT + 2)
    expect(confirmed).toBeLessThanOrEqual(HISTORY_STEP_AT + 4)
    expect(wall(nights[confirmed]!).find((r) => r.how === 'change-point')).toMatchObject({
      fromCommit: target.commits[HISTORY_STEP_AT - 1],
      toCommit: target.commits[HISTORY_STEP_AT],
    })
    expect(last).toEqual([expect.objectContaining({ toKey: target.commits[HISTORY_STEP_AT], regression: true })])
  })
})

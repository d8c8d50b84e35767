import { describe, expect, test } from 'vitest'
import {
  type PriorForecast,
  priorFileMs,
  priorFileRuns,
  priorRatio,
  willSkip,
} from '../../../src/engine/invocation-progress/prior-forecast.ts'
import { startLine } from '../../../src/engine/invocation-progress/start-line.ts'

const MEMORY = 'benchmarks/memory.gpu.test.ts'
const STAGE = 'benchmarks/stage-throughput.gpu.test.ts'
const E2E = 'benchmarks/e2e.gpu.test.ts'
const STUDY = 'benchmarks/study.gpu.test.ts'
const base = { group: '1 GPU at 1000 records', ms: 40_000, runs: 4 }
const PRIOR: PriorForecast = {
  kind: 'NVIDIA H200',
  missing: null,
  files: {
    [E2E]: { ms: 66_000, runs: 2, unknown: [] },
    [MEMORY]: { ms: 20_000, runs: 1, unknown: [], shared: base },
    [STAGE]: { ms: 11_000, runs: 0, unknown: [], shared: base },
    [STUDY]: { skip: 'settings study: not part of the main job' },
  },
}

describe("the prior's forecast of each file", () => {
  test('runs two files measure alike are counted once, with the first of them that runs', () => {
    const both = [E2E, MEMORY, STAGE]
    expect(priorFileMs(PRIOR, MEMORY, both)).toBe(60_000)
    expect(priorFileMs(PRIOR, STAGE, both)).toBe(11_000)
    expect([priorFileRuns(PRIOR, MEMORY, both), priorFileRuns(PRIOR, STAGE, both)]).toEqual([5, 0])
    expect(priorFileMs(PRIOR, STAGE, [STAGE])).toBe(51_000)
    expect(willSkip(PRIOR, STUDY)).toMatch(/not part of the main job/)
    expect(priorFileMs(PRIOR, STUDY, [STUDY])).toBe(0)
    expect(priorFileMs(null, E2E, [E2E])).toBeNull()
  })

  test('refined by the files that ended here: their spans over their forecasts scale the files not started', () => {
    const files = [E2E, MEMORY, STAGE]
    expect(priorRatio(PRIOR, new Map(), files)).toBe(1)
    // e2e forecast 66 s, took 99 s: the prior is 1.5x short here.
    expect(priorRatio(PRIOR, new Map([[E2E, 99_000]]), files)).toBe(1.5)
    expect(priorFileMs(PRIOR, MEMORY, files, 1.5)).toBe(90_000)
    // A skipped file says nothing of the host.
    expect(priorRatio(PRIOR, new Map([[STUDY, 5]]), files)).toBe(1)
  })

  test('the first line: the forecast from the prior says so, and that it is refined after each run', () => {
    const line = startLine({
      files: [E2E, MEMORY, STAGE, STUDY],
      earlier: { files: {}, kept: {} },
      prior: PRIOR,
      runId: 'R',
      resultsRoot: '/r',
      continuable: true,
    })
    expect(line).toBe(
      '[plan] gpu project: 3 files, one at a time: e2e, memory, stage-throughput (1 more skip, each saying why: study). Forecast: about 2 min 17 s, from the NVIDIA H200 prior (e2e 2 runs 1 min 6 s, memory 5 runs 1 min 0 s, stage-throughput 11 s); refined after each run. Each file plans its runs as it starts; a [run] line follows every run. If a job limit cuts it, the same command run again continues run R where it stopped: every run kept is reused, only the run in flight is measured again.',
    )
  })

  test('an earlier invocation of this plan forecasts the files it ran; the prior the others', () => {
    const earlier = {
      files: { [E2E]: { runs: 2, reused: 0, spanMs: 70_000, runId: 'R0', armsMs: {} } },
      kept: {},
    }
    const line = startLine({
      files: [E2E, MEMORY],
      earlier,
      prior: PRIOR,
      runId: 'R',
      resultsRoot: '/r',
      continuable: true,
    })
    expect(line).toContain(
      'Forecast: about 2 min 10 s, as earlier invocations of this plan under this key took them (run R0: e2e 2 runs in 1 min 10 s), and from the NVIDIA H200 prior (memory 5 runs 1 min 0 s); refined after each run.',
    )
  })
})

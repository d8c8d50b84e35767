import { join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { TestModule, TestProject, TestSpecification } from 'vitest/node'
import RunLinesReporter from '../../reporters/run-lines.ts'
import { appendLedgerLine, type LedgerLine, type ProgressContext } from '../../src/engine/invocation-progress/index.ts'
import { REPO_ROOT } from '../../src/pipeline/profiles.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const STAGE = 'benchmarks/stage-throughput.gpu.test.ts'
const E2E = 'benchmarks/e2e.gpu.test.ts'

/** A ledger line the test stamps with its clock. */
type Unstamped = LedgerLine extends infer L ? (L extends LedgerLine ? Omit<L, 'at'> : never) : never

/** A reporter on a fresh ledger, fed the gpu project's two files, on a clock the test moves. */
function reporterOnLedger(
  earlier: ProgressContext['earlier'] = { files: {}, kept: {} },
  prior: ProgressContext['prior'] = null,
  extra: string[] = [],
) {
  const ledger = join(tempDirUntilFileEnd('run-lines-'), 'ledger.jsonl')
  const progress: ProgressContext = {
    ledger,
    runId: 'RUN',
    resultsRoot: '/results',
    continuable: true,
    earlier,
    prior,
    jobLimitS: 0,
  }
  const project = { name: 'gpu', getProvidedContext: () => ({ progress }) } as unknown as TestProject
  const other = { name: 'unit', getProvidedContext: () => ({}) } as unknown as TestProject
  const clock = { nowMs: 1_000_000, elapsedMs: 5_000 }
  const lines: string[] = []
  const reporter = new RunLinesReporter({
    write: (line) => lines.push(line),
    nowMs: () => clock.nowMs,
    elapsedMs: () => clock.elapsedMs,
    quietMs: 45_000,
    pollMs: 1_000,
  })
  const spec = (file: string, p = project) => ({ project: p, moduleId: join(REPO_ROOT, file) }) as TestSpecification
  reporter.onTestRunStart([spec(STAGE), spec(E2E), ...extra.map((f) => spec(f)), spec('test/x.test.ts', other)])
  const module = (file: string) => ({ project, moduleId: join(REPO_ROOT, file) }) as unknown as TestModule
  const append = (line: Unstamped) => appendLedgerLine(ledger, { ...line, at: clock.nowMs } as LedgerLine)
  return { reporter, lines, clock, module, append }
}

const run = (
  arm: string,
  phase: 'warm-up' | 'run',
  n: number,
  wallMs: number,
  reused: 'earlier' | 'shared' | null = null,
) => ({ type: 'run' as const, file: STAGE, measurement: 'm1', arm, phase, n, wallMs, exitClass: 'completed', reused })

afterEach(() => {
  vi.useRealTimers()
})

describe('the run-lines reporter', () => {
  test('a start line, a plan, kept runs in one line per configuration, then a line for every run measured', () => {
    const { reporter, lines, clock, module, append } = reporterOnLedger()
    reporter.onTestModuleStart(module(STAGE))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      /^\[plan\] gpu project: 2 files, one at a time: e2e, stage-throughput\. Forecast: no earlier/,
    )
    append({ type: 'file-start', file: STAGE })
    append({
      type: 'plan',
      file: STAGE,
      measurement: 'm1',
      arms: [{ label: '1 GPU', warmups: 1, runs: 3, minRuns: 3 }],
    })
    append(run('1 GPU', 'warm-up', 1, 9_000, 'earlier'))
    append(run('1 GPU', 'run', 1, 6_000, 'earlier'))
    append({ type: 'start', file: STAGE, measurement: 'm1', arm: '1 GPU', phase: 'run', n: 2 })
    reporter.onTestCaseAnnotate()
    clock.nowMs += 6_500
    clock.elapsedMs += 6_500
    append(run('1 GPU', 'run', 2, 6_500))
    reporter.onUserConsoleLog()
    expect(lines.slice(1)).toEqual([
      '[run] stage-throughput > 1 GPU: 1 run and 1 warm-up kept by an earlier invocation, reused, not measured again; invocation 5 s elapsed, about 12 s left for the runs planned so far, more for the files not started (0 of 2 runs planned so far, warm-ups included; 2 kept runs reused; 1 file not started)',
      '[plan] stage-throughput: 2 runs to measure (1 GPU: 2 runs); invocation 5 s elapsed, about 12 s left for the runs planned so far, more for the files not started (0 of 2 runs planned so far, warm-ups included; 2 kept runs reused; 1 file not started)',
      '[run] stage-throughput > 1 GPU: run 2 of 3, 6.5 s; invocation 12 s elapsed, about 6 s left for the runs planned so far, more for the files not started (1 of 2 runs planned so far, warm-ups included; 2 kept runs reused; 1 file not started)',
    ])
  })

  test('a minute never passes in silence: the run in flight, or that none is, every 45 s', () => {
    vi.useFakeTimers()
    const { reporter, lines, clock, module, append } = reporterOnLedger()
    reporter.onTestModuleStart(module(STAGE))
    append({ type: 'file-start', file: STAGE })
    append({
      type: 'plan',
      file: STAGE,
      measurement: 'm1',
      arms: [{ label: '1 GPU', warmups: 0, runs: 2, minRuns: 2 }],
    })
    append({ type: 'start', file: STAGE, measurement: 'm1', arm: '1 GPU', phase: 'run', n: 1 })
    vi.advanceTimersByTime(1_000)
    expect(lines.at(-1)).toMatch(/^\[plan\] stage-throughput: 2 runs to measure/)
    clock.nowMs += 44_000
    vi.advanceTimersByTime(1_000)
    expect(lines.at(-1)).toMatch(/^\[plan\]/)
    clock.nowMs += 1_000
    vi.advanceTimersByTime(1_000)
    expect(lines.at(-1)).toMatch(/^\[running\] stage-throughput > 1 GPU: run 1 of 2 running for 45 s; invocation /)
    append(run('1 GPU', 'run', 1, 46_000))
    vi.advanceTimersByTime(1_000)
    expect(lines.at(-1)).toMatch(/^\[run\] stage-throughput > 1 GPU: run 1 of 2, 46\.0 s; .*about 46 s left/)
    clock.nowMs += 45_000
    vi.advanceTimersByTime(1_000)
    expect(lines.at(-1)).toMatch(/^\[running\] stage-throughput: no run in flight/)
    reporter.onTestModuleEnd()
    reporter.onTestRunEnd()
    expect(lines.at(-1)).toBe('[run] all files: 1 run measured, 46 s of runs in 5 s')
  })

  test('a project that keeps no ledger (no GPU, or another project) says nothing', () => {
    const { reporter, lines } = reporterOnLedger()
    const bare = { name: 'gpu', getProvidedContext: () => ({ progress: null }) } as unknown as TestProject
    reporter.onTestModuleStart({ project: bare, moduleId: join(REPO_ROOT, STAGE) } as unknown as TestModule)
    reporter.onTestRunEnd()
    expect(lines).toEqual([])
  })

  // Issue 58: the earlier ledger said a run takes 2 s; this invocation's first run takes 20 s.
  test("an earlier invocation's forecast that this one's runs disagree with is dropped, said in the run's line", () => {
    const armsMs = { '1 GPU': { 'warm-up': null, run: 2_000 } }
    const { reporter, lines, clock, module, append } = reporterOnLedger({
      files: {
        [STAGE]: { runs: 2, reused: 0, spanMs: 5_000, runId: 'R0', armsMs },
        [E2E]: { runs: 2, reused: 0, spanMs: 6_000, runId: 'R0', armsMs: {} },
      },
      kept: {},
    })
    reporter.onTestModuleStart(module(STAGE))
    expect(lines[0]).toContain('Forecast: about 11 s, as earlier invocations of this plan under this key took them')
    append({ type: 'file-start', file: STAGE })
    append({
      type: 'plan',
      file: STAGE,
      measurement: 'm1',
      arms: [{ label: '1 GPU', warmups: 0, runs: 2, minRuns: 2 }],
    })
    append({ type: 'start', file: STAGE, measurement: 'm1', arm: '1 GPU', phase: 'run', n: 1 })
    reporter.onTestCaseAnnotate()
    clock.nowMs += 20_000
    append(run('1 GPU', 'run', 1, 20_000))
    reporter.onTestCaseAnnotate()
    expect(lines.at(-1)).toBe(
      "[run] stage-throughput > 1 GPU: run 1 of 2, 20.0 s; invocation 5 s elapsed, about 20 s left for the runs planned so far, more for the files not started (1 of 2 runs planned so far, warm-ups included; 1 file not started); forecast dropped: the earlier invocation's runs took 2.0 s, these take 20.0 s (over 2x apart), so files not started have no forecast until they run",
    )
    append(run('1 GPU', 'run', 2, 21_000))
    reporter.onTestCaseAnnotate()
    expect(lines.at(-1)).not.toContain('forecast dropped')
    expect(lines.at(-1)).toContain('more for the files not started')
  })

  // Issue 57: a first-ever invocation forecasts from each file's plan and the host's prior, refined as files end.
  test('the prior forecasts the files not started, scaled by how far it was off for the files that ended', () => {
    const [STUDY, MEMORY] = ['benchmarks/study.gpu.test.ts', 'benchmarks/memory.gpu.test.ts']
    const prior: ProgressContext['prior'] = {
      kind: 'NVIDIA H200',
      missing: null,
      files: {
        [STAGE]: { ms: 10_000, runs: 2, unknown: [] },
        [E2E]: { ms: 60_000, runs: 2, unknown: [] },
        [MEMORY]: { ms: 5_000, runs: 1, unknown: [] },
        [STUDY]: { skip: 'settings study: not part of the main job' },
      },
    }
    const { reporter, lines, clock, module, append } = reporterOnLedger(undefined, prior, [STUDY, MEMORY])
    reporter.onTestModuleStart(module(STAGE))
    expect(lines[0]).toContain(
      '3 files, one at a time: e2e, memory, stage-throughput (1 more skip, each saying why: study). Forecast: about 1 min 15 s, from the NVIDIA H200 prior (e2e 2 runs 1 min 0 s, memory 1 run 5 s, stage-throughput 2 runs 10 s); refined after each run.',
    )
    append({ type: 'file-start', file: STAGE })
    append({
      type: 'plan',
      file: STAGE,
      measurement: 'm1',
      arms: [{ label: '1 GPU', warmups: 0, runs: 2, minRuns: 2 }],
    })
    clock.nowMs += 10_000
    append(run('1 GPU', 'run', 1, 10_000))
    reporter.onTestCaseAnnotate()
    // The runs planned by their own time, e2e by the prior; the skipping study is no file not started.
    expect(lines.at(-1)).toMatch(
      /run 1 of 2, 10\.0 s; invocation 5 s elapsed, about 1 min 15 s left \(1 of 2 runs planned so far, warm-ups included; 2 files not started\)$/,
    )
    clock.nowMs += 10_000
    append(run('1 GPU', 'run', 2, 10_000))
    append({ type: 'end', file: STAGE, measurement: 'm1' })
    append({ type: 'file-end', file: STAGE })
    reporter.onTestModuleEnd()
    // stage took 20 s where the prior said 10 s: once it has ended, e2e's 60 s reads 2 min.
    append({ type: 'file-start', file: MEMORY })
    append({
      type: 'plan',
      file: MEMORY,
      measurement: 'm2',
      arms: [{ label: '1 GPU', warmups: 0, runs: 1, minRuns: 1 }],
    })
    append({ ...run('1 GPU', 'run', 1, 4_000), file: MEMORY, measurement: 'm2' })
    reporter.onTestCaseAnnotate()
    expect(lines.at(-1)).toMatch(
      /^\[run\] memory > 1 GPU: run 1 of 1, 4\.0 s; invocation 5 s elapsed, about 2 min 0 s left \(/,
    )
  })
})

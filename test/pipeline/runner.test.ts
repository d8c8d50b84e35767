import { readFile } from 'node:fs/promises'
import { describe, expect, test } from 'vitest'
import type { TargetEvent } from '../../src/pipeline/events.ts'
import { type RunTargetOptions, runTarget } from '../../src/pipeline/runner.ts'
import { fakeProfile, useWorkdir } from './support/fake-profile.ts'

const work = useWorkdir()

function run(fake: string[], more: Partial<RunTargetOptions> = {}) {
  const extraArgs = [...fake.flatMap((f) => ['--fake', f]), ...(more.extraArgs ?? [])]
  return runTarget(fakeProfile(), {
    input: work.input,
    outputDir: work.outputDir,
    env: { FAKE_RUN_TAG: work.tag },
    graceMs: 1_000,
    ...more,
    extraArgs,
  })
}

describe('runTarget against a fake target (real processes)', () => {
  test('a completed run reports its events in order, its stages, outputs and log', async () => {
    const events: TargetEvent[] = []
    const record = await run(['chatter=40'], { onEvent: (e) => events.push(e), extraArgs: ['--stage-ms', '30'] })
    expect(record).toMatchObject({ exitClass: 'completed', reason: null, exitCode: 0, signal: null, sawOom: false })
    const stageEvents = events.filter((e) => e.type === 'stage-start' || e.type === 'stage-end')
    expect(stageEvents.map((e) => `${e.type}:${e.index}`)).toEqual(
      Array.from({ length: 9 }, (_, i) => [`stage-start:${i + 1}`, `stage-end:${i + 1}`]).flat(),
    )
    expect(events.at(-1)?.type).toBe('summary')
    expect(record.stages.map((s) => s.extras.files)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(record.outputs).toMatchObject({ state: 'found', predictions: { rows: 2, virus: 1, others: 1 } })
    expect(record.stageMismatches).toEqual([])
    const log = await readFile(record.logPath!, 'utf8')
    expect(log).toContain('=== Stage 9: Consensus Scoring ===')
    expect(record.logTail).toHaveLength(50)
    expect(record.logTail).toEqual(log.split('\n').slice(0, -1).slice(-50))
    expect(record.cleanup).toEqual({ signalsSent: [], escapees: [], survivors: [], gpuCheck: 'not-run' })
  })

  test('stage spans sum to the wall time within the process start/exit overhead', async () => {
    const record = await run([], { extraArgs: ['--stage-ms', '120'] })
    const spanSumMs = record.stages.reduce((sum, s) => sum + (s.receivedDurationMs ?? 0), 0)
    expect(spanSumMs).toBeLessThanOrEqual(record.wallMs)
    expect(record.wallMs - spanSumMs).toBeLessThan(1_000)
    const summaryStageSumS = record.summary!.stages.reduce((sum, s) => sum + (s.durationS ?? 0), 0)
    expect(Math.abs(summaryStageSumS - record.summary!.totalWallS)).toBeLessThanOrEqual(0.2 + 9 * 0.05)
  })

  test('the command has --force, the output dir and --gpus, as an argument array', async () => {
    const record = await run([], { gpus: [2, 3], modelType: '300', device: 'cpu' })
    expect(record.command?.args.slice(1)).toEqual([
      'predict',
      work.input,
      '-o',
      work.outputDir,
      '-m',
      '300',
      '-d',
      'cpu',
      '--gpus',
      '2,3',
      '--force',
    ])
    expect(record.gpusRequested).toEqual([2, 3])
  })

  test('a crash is failed with exit code 1, its exception line in the reason and the traceback in the log tail', async () => {
    const record = await run(['crash-at=3'])
    expect(record).toMatchObject({
      exitClass: 'failed',
      exitCode: 1,
      reason: 'exit code 1: RuntimeError: injected crash in stage 3',
    })
    expect(record.logTail.join('\n')).toContain('RuntimeError: injected crash in stage 3')
    expect(record.outputs).toEqual({ state: 'not-read', reason: 'run ended as failed' })
    expect(record.stages.at(-1)).toMatchObject({ index: 3, endMs: null })
  })

  test('exit code 2 is partial, and its outputs are still read', async () => {
    const record = await run(['partial'])
    expect(record).toMatchObject({ exitClass: 'partial', exitCode: 2, outputs: { state: 'found' } })
  })

  test('exit code 4 is oom', async () => {
    expect(await run(['oom'])).toMatchObject({ exitClass: 'oom', exitCode: 4, sawOom: true })
  })

  test('an OOM line with exit code 1 is oom too', async () => {
    expect(await run(['oom-exit1'])).toMatchObject({ exitClass: 'oom', exitCode: 1 })
  })

  test('a foreign signal is classed signal', async () => {
    expect(await run(['abort'])).toMatchObject({ exitClass: 'signal', signal: 'SIGABRT', exitCode: null })
  })

  test('a cut last line is logged but yields no event', async () => {
    const record = await run(['cut-line'])
    expect(record.logTail).toEqual(['=== Stage 1: Sequence Chu'])
    expect(record.stages).toEqual([])
  })

  test('a stage whose log and summary durations differ by more than 0.2 s is recorded', async () => {
    const record = await run(['skew=3:0.5'])
    expect(record.stageMismatches).toEqual([
      {
        name: 'Nucleotide File Splitting',
        logDurationS: expect.any(Number),
        summaryDurationS: expect.any(Number),
        diffS: 0.5,
      },
    ])
  })

  test('worker lines, batches and worker PIDs are reported', async () => {
    const events: TargetEvent[] = []
    const record = await run(['workers=2'], { onEvent: (e) => events.push(e), extraArgs: ['--stage-ms', '150'] })
    const batches = events.filter((e) => e.type === 'batch')
    expect(batches.map((b) => b.worker).sort()).toEqual([0, 0, 0, 1, 1, 1])
    expect(record.pids.length).toBeGreaterThanOrEqual(3)
  })

  test('onSpawn hands out the live tree once: its root, then the workers as the runner finds them', async () => {
    const trees: { rootPid: number; pids(): number[] }[] = []
    let pidsDuringRun: number[] = []
    const record = await run(['workers=2'], {
      onSpawn: (tree) => trees.push(tree),
      onEvent: (e) => {
        if (e.type === 'batch') pidsDuringRun = trees[0]!.pids()
      },
      extraArgs: ['--stage-ms', '150'],
    })
    expect(trees).toHaveLength(1)
    expect(trees[0]!.rootPid).toBe(record.pids[0])
    expect(pidsDuringRun.length).toBeGreaterThanOrEqual(3)
    expect(trees[0]!.pids()).toEqual(record.pids)
  })

  test('malformed outputs fail the run with the file and line', async () => {
    const record = await run(['bad-output'])
    expect(record.exitClass).toBe('failed')
    expect(record.reason).toMatch(/prediction_results\.txt:4: expected 4 tab-separated fields, got 3$/)
  })

  test('missing outputs fail the run with the path', async () => {
    const record = await run(['no-output'])
    expect(record.exitClass).toBe('failed')
    expect(record.reason).toMatch(/^output file not found: .*sample_merged\/prediction_results\.txt$/)
  })
})

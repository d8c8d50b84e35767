// The capacity suite's sequential design on the CPU (the reference pipeline's worker processes standing in for GPUs,
// tiny models, scripted fake NVML): it adds the runs it chooses within its budget (capacity/topup.ts), each one in the
// record with why, and a size it added is kept like any run. What it chooses depends on the host's noise; what these
// tests check holds for any choice, so they run beside other files (integration), not alone as the known answers do.
import { cpSync } from 'node:fs'
import { dirname } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import type { CapacityStats } from '../../src/capacity/analyze.ts'
import { cutByJobLimit } from '../../src/capacity/answered.ts'
import { uncheckedLine } from '../../src/capacity/held-out-status.ts'
import { recordAnswer } from '../../src/capacity/record-answer.ts'
import { measureCapacity, runCapacitySuite, writeCapacityRecord } from '../../src/capacity/suite.ts'
import { createSuiteContext } from '../../src/engine/context.ts'
import { createInputResolver } from '../../src/input/resolver.ts'
import { readResultRecords } from '../../src/results/store.ts'
import { acquireWriter, releaseWriter } from '../../src/results/writer-lock.ts'
import { cpuConfig, cpuContext, fakeGpu, scripted } from '../suites/support/cpu-suite.ts'
import { referencePipelineOnCpu } from '../support/reference-pipeline.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const ready = await referencePipelineOnCpu()

const CONFIGS = [{ config: cpuConfig('1 worker', ['--cpu-workers', '1', '--esm-batch-size', '512']), gpuCount: 1 }]

/** One worker at 8 and 40 records, 2 runs each, measured as planned: its run directory and inputs, and what it took. */
interface Planned {
  resultsRoot: string
  runId: string
  cacheDir: string
  spentMs: number
  oneRunMs: number
}

async function measurePlanned(): Promise<Planned> {
  const ctx = await cpuContext()
  const cacheDir = tempDirUntilFileEnd('capacity-design-inputs-')
  const resolver = await createInputResolver({ cacheDir })
  const inputs = await resolver.nested('SMALL', [8, 40])
  const { input: _input, ...m } = scripted([fakeGpu(90)], 2, 0)
  const planned = await measureCapacity({ ...ctx, inputs: resolver }, m, CONFIGS, inputs)
  const spentMs = planned
    .flatMap((c) => c.bySize.flatMap((s) => s.observations))
    .reduce((a, o) => a + o.measured.run.wallMs, 0)
  const oneRunMs = Math.max(...planned[0]!.bySize[1]!.observations.map((o) => o.measured.run.wallMs))
  return { resultsRoot: dirname(ctx.resultsDir), runId: ctx.runId, cacheDir, spentMs, oneRunMs }
}

/**
 * The planned measurement as a test of its own finds it: a copy of its run (results directory under the same run ID),
 * in this process's context, so the design that follows reuses the planned runs as kept ones, as it would have after
 * measuring them itself; and a budget of what they took plus `room` runs of the largest size. The inputs are the
 * planned measurement's own files (an arm's journal slot is keyed by its input's path): a size a test's design adds is
 * generated into the same cache, the same bytes whichever test generates it first.
 */
async function plannedWithRoom(planned: Planned, room: number) {
  const copy = tempDirUntilFileEnd('capacity-design-run-')
  cpSync(planned.resultsRoot, copy, { recursive: true })
  const ctx = await createSuiteContext(planned.runId, { ...process.env, VIRNUCPRO_BENCH_TARGET: 'reference' }, copy)
  const resolver = await createInputResolver({ cacheDir: planned.cacheDir })
  const inputs = await resolver.nested('SMALL', [8, 40])
  const { input: _input, ...m } = scripted([fakeGpu(90)], 2, 0)
  const budget = (planned.spentMs + room * planned.oneRunMs) / 60_000
  return { ctx, resolver, m, configs: CONFIGS, inputs, budget }
}

describe.skipIf(ready.state !== 'ready')('the capacity design on the CPU', () => {
  // The planned runs every test's design starts from, measured once (about 14 s each time): what each test checks is
  // what its own design does after them, in a copy of their run of its own, so no test sees another's steps.
  let planned: Planned
  beforeAll(async () => {
    planned = await measurePlanned()
  }, 120_000)

  test('the sequential design: runs it chose within the budget, kept in the record with why, said why it stopped', async () => {
    // Room for about two more runs of the largest size: the planned ones are kept runs, reused.
    const { ctx, resolver, m, configs, inputs, budget } = await plannedWithRoom(planned, 2.5)
    const measured = await measureCapacity({ ...ctx, inputs: resolver }, m, configs, inputs, {
      budgetGpuMinutes: budget,
    })
    const state = measured.sequential!
    // Any stop of the `decided` rule but a failure: which one depends on this host's noise (a 2-core CI VM ended
    // 'undecidable' where this machine ends 'budget'). What each stop says of the questions must hold either way.
    expect(state.rule).toBe('decided')
    expect(['decided', 'looks', 'undecidable', 'budget']).toContain(state.stop)
    if (state.stop === 'decided') expect(state.undecided).toEqual([])
    else {
      expect(state.undecided!.length).toBeGreaterThan(0)
      for (const u of state.undecided!) expect(u.needs).not.toBe('')
    }
    expect(state.looks).toBeLessThanOrEqual(state.maxLooks!)
    // The budget is a cap for any run no slower than one already seen (capacity/topup.ts overrunFactor): the design
    // never starts a step it cannot afford at the slowest overrun seen, so it can end over the budget only by its last
    // step's runs being slower than that, and by no more than they took beyond their expected cost. `<= budget` alone
    // failed a clean-clone CI on a busy 2-core VM (0.4739 GPU-minutes against 0.4679: CI21, issue 45).
    const last = state.steps.at(-1)
    if (!last) expect(state.gpuMinutes).toBeLessThanOrEqual(budget)
    else {
      // A step's runs (no warm-ups: suite.ts's top-ups) are the last ones at its size.
      const at = measured.inputs!.findIndex((i) => i.records === last.records)
      const lastRuns = measured[0]!.bySize[at]!.observations.slice(-last.runs)
      const lastMin = lastRuns.reduce((a, o) => a + o.measured.run.wallMs, 0) / 60_000
      expect(state.gpuMinutes - lastMin, 'spent before the last step').toBeLessThanOrEqual(budget)
      expect(state.gpuMinutes - budget, 'over the budget').toBeLessThanOrEqual(
        Math.max(0, lastMin - last.gpuMinutes) + 1e-9,
      )
    }
    // Every run the design added is in the measurements, at the size it chose, with a label of its own.
    const runs = measured[0]!.bySize.flatMap((s) => s.observations).filter((o) => !o.measured.warmup)
    expect(runs).toHaveLength(2 * 2 + state.topUps)
    expect(state.steps.reduce((a, s) => a + s.runs, 0)).toBe(state.topUps)
    const labels = runs.map((o) => o.measured.label)
    expect(new Set(labels).size).toBe(labels.length)
    for (const s of state.steps) expect(s.why).toMatch(/1 worker at [\d,]+ records/)
    const sizes = measured.inputs!
    const { record } = await writeCapacityRecord({ ...ctx, inputs: resolver }, measured, sizes, '', [], [], state)
    expect((record.stats as unknown as CapacityStats).sequential).toMatchObject({
      stop: state.stop,
      topUps: state.topUps,
    })
    expect((record.stats as unknown as CapacityStats).sizes).toEqual(sizes.map((i) => i.records))
  }, 300_000)

  test('a size the design added is kept like any run: a later invocation makes the same choices and measures none again', async () => {
    // Room for about six more runs of the largest size: the first step (a third size, or the reach's 2 runs at about 4x
    // the records) fits with room to spare, and a step or two after it. More room only adds steps this test does not
    // read: at 12 the design spent 1.0 GPU-minute and the test took 69 s here, at 6 it spent 0.5 and took 37 s.
    const { ctx, resolver, m, configs, inputs, budget } = await plannedWithRoom(planned, 6)
    const first = await measureCapacity({ ...ctx, inputs: resolver }, m, configs, inputs, { budgetGpuMinutes: budget })
    const steps = first.sequential!.steps
    expect(['reach', 'third size']).toContain(steps[0]!.kind)
    const added = first.inputs!.find((i) => i.records === steps[0]!.records)!
    // A generated source grows as the preset at more records, whose first records are the source (checked).
    expect(added.kind).toBe(steps[0]!.kind === 'reach' ? 'superset' : 'subset')
    // A later invocation holds the run under its own token (every write is fenced by the writer lock).
    releaseWriter(ctx.workDir, ctx.writer.token)
    await acquireWriter(ctx.workDir, { token: 'a-later-invocation' })
    const later = { ...ctx, inputs: resolver, writer: { token: 'a-later-invocation' } }
    const again = await measureCapacity(later, m, configs, inputs, { budgetGpuMinutes: budget })
    expect(again.sequential!.steps.map((s) => [s.kind, s.records, s.runs])).toEqual(
      steps.map((s) => [s.kind, s.records, s.runs]),
    )
    expect(again.inputs!.map((i) => i.records)).toEqual(first.inputs!.map((i) => i.records))
    const all = again[0]!.bySize
    expect(all.reduce((a, s) => a + s.reusedRuns, 0)).toBe(all.reduce((a, s) => a + s.observations.length, 0))
  }, 300_000)

  // Issue 57: the main job fits one job limit (VIRNUCPRO_BENCH_JOB_LIMIT_S): what the limit leaves no time for is not
  // started, the record says so and is no answer, and the same command again goes on under the same id.
  test('a job limit stops the design and its check short; the same command again goes on under the same id and checks it', async () => {
    const { ctx, resolver, m, configs, inputs, budget } = await plannedWithRoom(planned, 4)
    const options = { budgetGpuMinutes: budget, direct: { runs: 1, records: [80] }, takeAnswered: true }
    // The limit reached as the measurement starts: its planned runs (kept, replayed) and nothing more.
    const first = await runCapacitySuite({ ...ctx, inputs: resolver }, m, configs, inputs, {
      ...options,
      deadlineMs: Date.now(),
    })
    expect(first.record.state, first.record.reason ?? '').toBe('completed')
    expect(cutByJobLimit(first.record)).toBe(true)
    const cut = first.record.stats as unknown as CapacityStats
    expect(cut.sizeChoice?.heldOut).toMatchObject({ records: null, jobLimit: true })
    expect(cut.sizeChoice?.heldOut?.why).toMatch(/^no held-out run yet: the job limit \(VIRNUCPRO_BENCH_JOB_LIMIT_S\)/)
    expect(first.record.runs.filter((r) => !r.warmup)).toHaveLength(4)
    expect(['job-limit', 'decided']).toContain(cut.sequential?.stop)
    const answer = recordAnswer(first.record)!
    expect(answer.statusText).not.toMatch(/^FINAL/)
    expect(answer.unchecked.map(uncheckedLine).join('\n')).toMatch(
      /^UNCHECKED, 1 worker: no held-out run yet: the job limit .*; to check it: the same command again/,
    )
    // The next invocation: the same question, no answer yet, so measured under the same id; the runs kept reused.
    releaseWriter(ctx.workDir, ctx.writer.token)
    await acquireWriter(ctx.workDir, { token: 'the-next-job' })
    const later = { ...ctx, inputs: resolver, writer: { token: 'the-next-job' } }
    const again = await runCapacitySuite(later, m, configs, inputs, options)
    expect(again.record.id).toBe(first.record.id)
    // One answer in the run: the continuation's, written over the cut one (not beside it as `-2`).
    const { records } = await readResultRecords(ctx.resultsDir)
    expect(records.filter((r) => r.kind === 'capacity').map((r) => r.id)).toEqual([first.record.id])
    expect(cutByJobLimit(again.record)).toBe(false)
    expect((again.record.stats as unknown as CapacityStats).sizeChoice?.heldOut?.records).toBe(80)
    const sizes = (again.record.stats as unknown as CapacityStats).sizes
    const plannedSizes = sizes.flatMap((records, i) => ([8, 40].includes(records) ? [i] : []))
    expect(plannedSizes.map((i) => again.measured[0]!.bySize[i]!.reusedRuns >= 2)).toEqual([true, true])
  }, 300_000)
})

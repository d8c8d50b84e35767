/**
 * Validation on 1 GPU, full scale: planted CPU stall (GPU starvation), device-memory leak and OOM, each one run, no
 * warm-up; the assertions are on the suites' verdicts and the bottleneck report, not on the pipeline's behaviour.
 * GPU machine: VIRNUCPRO_BENCH_VALIDATION=1 npx vitest run --project gpu benchmarks/validation/single-gpu
 */
import { beforeAll, describe, expect, test } from 'vitest'
import { BOTTLENECK_RULES } from '../../../src/report/analyses/bottleneck-rules.ts'
import { runMemorySuite, runStageSuite } from '../../../src/suites/index.ts'
import { bottleneckFlags, describeFlags, STARVATION_RULES } from '../../../src/validation/bottleneck-check.ts'
import { describeEnding, livePids, runEnding } from '../../../src/validation/run-checks.ts'
import { ESM2, faultConfig, PLANTED, scenario } from '../../../src/validation/scenarios.ts'
import { checkLeakRate, verdictOf } from '../../../src/validation/verdict-checks.ts'
import { gpuAvailable } from '../../support/gpu.ts'
import { validationAsked } from '../../support/main-job.ts'
import { createRunContext, type RunContext } from '../../support/run-context.ts'
import { mediumInput, once } from '../support.ts'

let rc: RunContext
beforeAll(async () => {
  if (!gpuAvailable() || !validationAsked()) return
  rc = await createRunContext(1)
})

const config = (id: string) => faultConfig(rc.configs.base([0]), scenario(id))
const input = (id: string) => mediumInput(scenario(id).records)

describe('validation, 1 GPU: starvation and memory faults', () => {
  test('cpu-stall-ms: PERF-02 fails for ESM-2, the report flags starvation with its recommendation', async ({
    skip,
    annotate,
  }) => {
    if (rc.unavailable) skip(rc.unavailable)
    const { record } = await runStageSuite(rc.ctx, once(rc, await input('cpu-stall')), config('cpu-stall'))
    expect(runEnding(record).exitClass).toBe('completed')
    const perf02 = verdictOf(record, `perf02/${ESM2}/gpu0`)
    expect(perf02.verdict, perf02.detail).toBe('fail')
    const flags = bottleneckFlags(record, ESM2)
    const rules: readonly string[] = STARVATION_RULES
    const starvation = flags.filter((f) => rules.includes(f.rule))
    expect(starvation.length, describeFlags(flags)).toBeGreaterThan(0)
    for (const f of starvation)
      expect(f.recommendation).toBe(BOTTLENECK_RULES.find((r) => r.id === f.rule)?.recommendation)
    await annotate(
      `validation cpu-stall-ms=${PLANTED.cpuStallMs}: PERF-02 ESM-2 ${perf02.value?.toFixed(1)}% (${perf02.verdict}); ${describeFlags(starvation)}`,
    )
  })

  test('leak-mb: the in-run leak check fails with a rate within 20% of the planted one', async ({ skip, annotate }) => {
    if (rc.unavailable) skip(rc.unavailable)
    // Batches come every ~0.1 s at this token budget: the monitor polls at 25 ms so each batch has its own reading.
    const { record } = await runMemorySuite(rc.ctx, once(rc, await input('leak'), 25), {
      main: config('leak'),
      oom: null,
      persistent: 'not part of the leak scenario',
    })
    const check = checkLeakRate(record, 0, PLANTED.leakMib, 0.2)
    expect(check.verdict, check.detail).toBe('fail')
    expect(check.rate.state, JSON.stringify(check.rate)).toBe('within')
    const after = verdictOf(record, 'memory/leak/gpu0')
    const estimated = check.rate.state === 'missing' ? 'none' : `${check.rate.estimated.toFixed(1)} MiB/batch`
    const error = check.rate.state === 'missing' ? '' : ` (error ${(check.rate.relativeError * 100).toFixed(1)}%)`
    await annotate(
      `validation leak-mb=${PLANTED.leakMib}: memory/esm2-slope ${check.verdict}, estimated ${estimated}${error}; ${check.detail}; after-run leak check ${after.verdict} (${after.value?.toFixed(1)} MiB)`,
    )
  })

  test('oom: classified OOM and reported handled, nothing left running, GPU memory released', async ({
    skip,
    annotate,
  }) => {
    if (rc.unavailable) skip(rc.unavailable)
    const main = faultConfig(rc.configs.base([0]), { ...scenario('oom'), id: 'oom-scenario baseline', inject: [] })
    const { record } = await runMemorySuite(rc.ctx, once(rc, await input('oom')), {
      main,
      oom: config('oom'),
      persistent: 'not part of the OOM scenario',
    })
    const handled = verdictOf(record, 'memory/oom-handling')
    expect(handled.verdict, handled.detail).toBe('pass')
    const oomRun = record.runs.find((r) => r.label.startsWith(`${config('oom').label} run`))
    expect(oomRun?.run.exitClass).toBe('oom')
    const ending = runEnding({ ...record, runs: oomRun ? [oomRun] : [] })
    const alive = livePids(ending.pids)
    expect(ending.survivors).toBe(0)
    expect(ending.gpuCheck).toBe('clean')
    expect(alive).toEqual([])
    await annotate(`validation oom: memory/oom-handling ${handled.verdict}; ${describeEnding(ending, alive)}`)
  })
})

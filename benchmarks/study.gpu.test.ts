/**
 * The settings study on a GPU host (issue 37): which of a grid of the target's options (VIRNUCPRO_BENCH_SWEEP as JSON;
 * default src/study/default-grid.ts, by target and GPU count) makes 6 M finish in 10 hours, and whether the second GPU
 * pays then. The grid is screened by successive halving on the largest GPU count the host holds (2 runs a setting a
 * round, at a quarter of the capacity's smallest size and then at it), the winner and the default each get the
 * capacity answer (1, 2, 4, 8 GPUs as held; each design given half of VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN), and a
 * setting counts only with the default's consensus labels (src/study/outputs.ts). Interrupted, the same command
 * continues it. Writes the study record and the two capacity records.
 * Not part of the main job: it runs when asked (support/main-job.ts).
 * GPU machine: VIRNUCPRO_BENCH_STUDY=1 npx vitest run --project gpu benchmarks/study.gpu.test.ts
 */
import { expect, test } from 'vitest'
import { parseSweepGrid } from '../src/engine/sweep-grid.ts'
import { studyDesignBudget } from '../src/study/budget.ts'
import { defaultStudyGrid, studyLadder } from '../src/study/default-grid.ts'
import type { StudyStats } from '../src/study/stats.ts'
import { runStudySuite } from '../src/study/study.ts'
import { capacityInputs, heldOutOptions } from './support/capacity-inputs.ts'
import { gpuAvailable } from './support/gpu.ts'
import { STUDY_NOT_ASKED, studyAsked } from './support/main-job.ts'
import { capacityConfigs, createRunContext } from './support/run-context.ts'

test('settings study: the grid screened, its best setting and the default each with a capacity answer', async ({
  annotate,
  skip,
}) => {
  if (!gpuAvailable()) skip('no GPU')
  if (!studyAsked()) skip(STUDY_NOT_ASKED)
  const rc = await createRunContext(1)
  if (rc.unavailable) skip(rc.unavailable)
  const { configs } = capacityConfigs(rc)
  const raw = process.env.VIRNUCPRO_BENCH_SWEEP?.trim()
  // Without a grid, the target's own for the GPU count screened: the largest held (runStudySuite screens the last).
  const grid = raw ? parseSweepGrid(raw) : defaultStudyGrid(rc.ctx.profile.name, configs.at(-1)!.gpuCount)
  // Refused before any run: half the budget each for the default's and the best setting's answers, under a minute each.
  const designBudget = studyDesignBudget(rc.settings.capacityBudgetGpuMin)
  const sizes = await capacityInputs(rc, configs)
  const planned = sizes.inputs
  const ladder = await rc.inputs.nested(rc.settings.preset, studyLadder(planned.map((i) => i.records)))
  const { input: _input, ...m } = rc.measure(planned[0]!.file)
  const { record } = await runStudySuite(rc.ctx, m, {
    grid,
    configs,
    ladder,
    capacityInputs: planned,
    say: (line) => console.log(line),
    // The probe run of the capacity sizes: the study's time forecast before its first run stands on it.
    prior: sizes.probe,
    // A winner on another path (`no --parallel`: v1.0) planned by its own probe, as the capacity file plans its v1.0
    // baseline: the same question, which the run answers once.
    winnerSizes: async (winnerConfigs) => {
      const own = await capacityInputs(rc, winnerConfigs)
      return { inputs: own.inputs, capacity: heldOutOptions(rc, own, winnerConfigs) }
    },
    capacity: {
      budgetGpuMinutes: designBudget,
      rule: rc.settings.capacityStop,
      onAnswer: (line) => console.log(line),
      ...heldOutOptions(rc, sizes, configs),
    },
  })
  const stats = record.stats as unknown as StudyStats
  const line = (r: StudyStats['rows'][number]) => {
    const hours = r.capacity?.perGpuCount.map((g) => `${g.gpuCount} GPU ${g.productionH?.value.toFixed(1) ?? '?'} h`)
    const left = r.dropped ? `left in round ${r.dropped.round}: ${r.dropped.why} (${r.dropped.detail})` : ''
    return `${r.label}${r.label === stats.best ? ' (best)' : ''}: ${hours?.join(', ') ?? left}; outputs ${r.outputs ? r.outputs.equal : 'reference'}`
  }
  await annotate(`settings study on ${stats.screenedOn}: ${stats.rows.map(line).join(' | ')}`)
  for (const v of record.verdicts) await annotate(`${v.id}: ${v.verdict}: ${v.detail}`)
  // Every setting either came through or left with why; the default and the winner each have a capacity answer.
  for (const r of stats.rows.filter((x) => !x.isDefault))
    expect(r.label === stats.best || r.dropped !== null, r.label).toBe(true)
  expect(stats.rows.find((r) => r.isDefault)?.capacity, 'the default has no capacity answer').not.toBeNull()
  if (stats.best) expect(stats.rows.find((r) => r.label === stats.best)?.capacity).not.toBeNull()
})

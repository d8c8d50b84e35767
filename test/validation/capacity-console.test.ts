// Issue 44: a new user ran the main job (`vitest run --project gpu`) and read, in one console, the known answer's direct
// check as `capacity, 1 GPU at 1,000 / 4,000 seqs: FINAL: ... [95% CI]` and, a few lines later, the same name as
// `PROVISIONAL (6 of 6 runs): ... [99.17% CI]` (its measurement's journal named a record the check never wrote), beside
// the real answer; and `FINAL: ... (undecided against 10 h)` with no reason. Here the capacity answer's file and the
// capacity known answers' file run in one gpu-project invocation as a user runs them (a real process group: the
// reference pipeline on the CPU, one fake GPU; the answer's test and the 1-GPU direct check, the pair that clashed).
import { stripVTControlCharacters } from 'node:util'
import { execa } from 'execa'
import { describe, expect, test } from 'vitest'
import { CAMPAIGN_COMMAND, cpuCampaigns } from '../engine/support/cpu-campaign.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'
import {
  answersIn,
  capacitySuiteNames,
  finalUndecidedWithoutStop,
  levelsIn,
  undecidedWithoutReason,
} from './support/capacity-console.ts'

const { pipeline, env } = await cpuCampaigns(2)
const FILES = ['benchmarks/scaling.gpu.test.ts', 'benchmarks/validation/capacity/capacity.gpu.test.ts']
/** The capacity answer's test and the known answers' 1-GPU direct check. */
const TESTS = 'capacity: size model|on 1 GPU'

describe.skipIf(pipeline.state !== 'ready')('the capacity answer beside its known answers, in one console', () => {
  test('one name one answer, known answers named so, every UNDECIDED with its reason, no bare FINAL', {
    timeout: 300_000,
  }, async () => {
    const work = tempDirUntilFileEnd('capacity-console-')
    const run = await execa('node', [...CAMPAIGN_COMMAND.slice(0, -1), ...FILES, '-t', TESTS], {
      reject: false,
      all: true,
      env: {
        ...env(work),
        // The known answers are not part of the main job: asked for here (benchmarks/support/main-job.ts).
        VIRNUCPRO_BENCH_VALIDATION: '1',
        VIRNUCPRO_BENCH_PRESET: 'SMALL',
        VIRNUCPRO_BENCH_RECORDS: '0',
        VIRNUCPRO_BENCH_SIZES: '8,16',
        VIRNUCPRO_BENCH_WARMUP: '0',
        // The least budget: the planned runs judged once, two sizes (a PASS then waits for a third: an UNDECIDED).
        VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '1',
      },
    })
    const out = stripVTControlCharacters(run.all ?? '')
    const lines = out.split('\n')
    expect(out, out).toMatch(/gpu-report: \d+ reports in /)

    // Each property on its own (expect.soft): a console that breaks several shows every one.
    // One name, one answer: the configuration's answer once; a known answer's records named so, and no answer line.
    const answers = answersIn(lines)
    expect
      .soft(answers.map((a) => a.name))
      .toEqual([expect.stringMatching(/^capacity, 1 GPU, v2\.0 \(cpu\) at 8 \/ 16 seqs$/)])
    const suites = capacitySuiteNames(lines)
    expect.soft(suites.filter((n) => !n.startsWith('known answer: '))).toEqual([answers[0]?.name])
    expect.soft(suites).toContain('known answer: direct check at 40 records, 1 GPU (1 GPU, v2.0 (cpu) at 8 / 16 seqs)')
    expect.soft(out).toMatch(/^\[annotation\] gpu > .* \| known answer: direct check, 1 GPU, v2\.0 \(cpu\): fit /m)
    // One level for the answer, named, from its first run's line to its tables.
    expect.soft(levelsIn(lines.filter((l) => /^(gpu-report: )?capacity /.test(l)))).toEqual(['95% CI, judged once'])

    // Every UNDECIDED says why on its own line; a FINAL beside `undecided` says how the measurement stopped.
    expect.soft(lines.filter((l) => /undecided/i.test(l)).length).toBeGreaterThan(0)
    expect.soft(undecidedWithoutReason(lines)).toEqual([])
    expect.soft(finalUndecidedWithoutStop(lines)).toEqual([])
    for (const a of answers.filter((x) => !x.headline.startsWith('PROVISIONAL')))
      expect
        .soft(a.headline)
        .toMatch(/^(FINAL|UNCHECKED|UNDECIDED) \((.+; )?(design finished|judged once, no design): /)
  })
})

import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { execa } from 'execa'
import { describe, expect, test } from 'vitest'
import { readResultRecords } from '../../src/results/store.ts'
import { createFakeNvml } from '../support/fake-nvml.ts'
import { referencePipelineOnCpu } from '../support/reference-pipeline.ts'
import { atFileEnd, tempDirUntilFileEnd } from '../support/temp-dir.ts'

// benchmarks/ab.gpu.bench.ts as a person runs it, with VIRNUCPRO_BENCH_AB, on the CPU: the reference pipeline at its
// smallest (VIRNUCPRO_BENCH_DEVICE=cpu) and one fake GPU for the gpu project's driver check and the monitor. What this
// proves is the bench's wiring, which no GPU is needed for: each arm's extraArgs and env reach its own runs and no
// other's, the runs alternate, and a planted slowdown of one arm comes back as that arm's regression.
const pipeline = await referencePipelineOnCpu()

const GIB = 2 ** 30
const PLANTED_ARGS_S = 1.5
const PLANTED_ENV_S = 1

describe.skipIf(pipeline.state !== 'ready')('the A/B bench with VIRNUCPRO_BENCH_AB, on the CPU', () => {
  test("each arm's extraArgs and env reach its runs only; B slowed on purpose reads as B's regression", {
    timeout: 240_000,
  }, async () => {
    const fake = createFakeNvml({
      devices: [{ name: 'NVIDIA H100 (fake)', memTotalBytes: 80 * GIB, memUsedBytes: 2 * GIB, utilGpuPct: 90 }],
    })
    atFileEnd(() => fake.remove())
    const work = tempDirUntilFileEnd('ab-bench-')
    const arms = {
      a: { label: 'plain' },
      b: {
        label: 'slowed',
        extraArgs: ['--inject', `slow-stage=Consensus Scoring:${PLANTED_ARGS_S}`],
        env: { REFPIPE_INJECT: `slow-stage=Feature Merging:${PLANTED_ENV_S}` },
      },
    }
    const result = await execa('npx', ['vitest', 'bench', '--project', 'gpu (bench)', 'benchmarks/ab.gpu.bench.ts'], {
      reject: false,
      env: {
        ...fake.env,
        VIRNUCPRO_BENCH_AB: JSON.stringify(arms),
        VIRNUCPRO_BENCH_DEVICE: 'cpu',
        VIRNUCPRO_BENCH_TARGET: 'reference',
        VIRNUCPRO_BENCH_MODEL_SCALE: 'tiny',
        VIRNUCPRO_BENCH_PRESET: 'TINY',
        VIRNUCPRO_BENCH_RECORDS: '10',
        VIRNUCPRO_BENCH_WARMUP: '0',
        VIRNUCPRO_BENCH_MONITOR_INTERVAL_MS: '50',
        VIRNUCPRO_BENCH_RESULTS_DIR: join(work, 'results'),
        VIRNUCPRO_BENCH_REPORTS_DIR: join(work, 'reports'),
        VITEST_SUMMARY_FILE: '',
        NO_COLOR: '1',
      },
    })
    const output = stripVTControlCharacters(`${result.stdout}\n${result.stderr}`)
    const [runDir] = readdirSync(join(work, 'results'))
    expect(runDir, output).toBeDefined()
    const { records, invalid } = await readResultRecords(join(work, 'results', runDir!))
    expect(invalid).toEqual([])
    const record = records.find((r) => r.kind === 'ab')
    expect(record?.id, output).toBe('ab-slowed-vs-plain')

    // The bench's 4 runs a side (its minimum), alternating A B A B ... after the warm-ups the policy asks for.
    // The record keeps each arm's runs together; when they ran is in their start times.
    const measured = record!.runs.filter((r) => !r.warmup)
    const byStart = [...measured].sort((x, y) => x.run.startedAt.localeCompare(y.run.startedAt))
    expect(byStart.map((r) => r.label.split(' run')[0])).toEqual(Array(4).fill(['plain', 'slowed']).flat())
    expect(measured.every((r) => r.run.exitClass === 'completed')).toBe(true)

    // The pipeline's own time for the stage (its `completed in X s`), not the runner's receive times: a stage line read
    // late on a loaded 2-core CI machine once made a slowed stage's received span shorter than what was planted.
    const stageS = (run: (typeof measured)[number], name: string) =>
      run.run.stages.find((s) => s.name === name)?.logDurationS ?? Number.NaN
    for (const r of measured) {
      const slowed = r.label.startsWith('slowed')
      const args = r.run.command!.args.join(' ')
      expect(args.includes(`slow-stage=Consensus Scoring:${PLANTED_ARGS_S}`), r.label).toBe(slowed)
      expect(r.run.command!.env.REFPIPE_INJECT === arms.b.env.REFPIPE_INJECT, r.label).toBe(slowed)
      // The pipeline acted on both: B's two stages held for what was planted, A's not.
      expect(stageS(r, 'Consensus Scoring') >= PLANTED_ARGS_S, r.label).toBe(slowed)
      expect(stageS(r, 'Feature Merging') >= PLANTED_ENV_S, r.label).toBe(slowed)
    }

    // B measured slower by about what was planted: the comparison reads a regression, and the bench fails on it.
    const verdict = record!.verdicts[0]!
    expect(verdict).toMatchObject({ id: 'ab/slowed-vs-plain', verdict: 'fail' })
    expect(verdict.detail).toMatch(/^regressed: /)
    expect(result.exitCode, output).toBe(1)
    expect(output).toContain('A/B interleaved on 1 GPU')
    expect(output).not.toMatch(/^\s+at .*src\//m)
  })
})

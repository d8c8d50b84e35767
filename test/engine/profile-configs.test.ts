// Issue 56: the user's own pipeline options (VIRNUCPRO_BENCH_PIPELINE_ARGS) reach every configuration every suite
// runs, made in one place (configsFor), in front of the configuration's own options.
import { describe, expect, test } from 'vitest'
import { capacityConfigs } from '../../benchmarks/support/run-context.ts'
import type { Configuration } from '../../src/engine/configuration.ts'
import { configsFor, type ProfileConfigs } from '../../src/engine/profile-configs.ts'
import { suiteSettings } from '../../src/engine/settings.ts'
import { expandGrid } from '../../src/engine/sweep-grid.ts'
import { gridSettings } from '../../src/study/grid-settings.ts'
import { withOptions } from '../../src/study/study.ts'

const USER = ['--esm-batch-size', '4096', '--label', 'two words']

/** Every configuration a profile's configs make on `gpus`, by kind. */
function everyKind(c: ProfileConfigs, gpus: number[]) {
  const pair = c.persistentModels(gpus)
  return {
    base: [c.base(gpus)],
    matrix: c.matrix(gpus).arms.map((arm) => arm.config),
    equivalence: c.equivalence(gpus),
    oom: [c.oom(gpus)],
    persistentModels: typeof pair === 'string' ? [] : pair,
  } satisfies Record<string, Configuration[]>
}

const startsWithUser = (config: Configuration) => expect(config.extraArgs?.slice(0, USER.length)).toEqual(USER)

describe("configsFor: the user's pipeline options in every configuration", () => {
  test.for([
    ['virnucpro', 'gpu'],
    ['virnucpro', 'cpu'],
    ['reference', 'gpu'],
    ['reference', 'cpu'],
  ] as const)(
    '%s on the %s: base, matrix, equivalence, OOM and persistent models, on 1 and 2 GPUs',
    ([profile, device]) => {
      const plain = configsFor(profile, 'tiny', device, [])
      const withUser = configsFor(profile, 'tiny', device, USER)
      for (const gpus of [[0], [0, 1]]) {
        const kinds = everyKind(withUser, gpus)
        const before = everyKind(plain, gpus)
        expect(kinds.matrix.length).toBeGreaterThan(1)
        if (profile === 'virnucpro' && gpus.length === 2) expect(kinds.persistentModels).toHaveLength(2)
        for (const kind of Object.keys(kinds) as (keyof typeof kinds)[]) {
          const configs: Configuration[] = kinds[kind]
          expect(configs).toHaveLength(before[kind].length)
          configs.forEach((config, i) => {
            startsWithUser(config)
            // Nothing else changes: the configuration's own options follow, as they were, and win where they repeat one.
            expect(config.extraArgs?.slice(USER.length)).toEqual(before[kind][i]!.extraArgs ?? [])
            expect({ ...config, extraArgs: [] }).toEqual({ ...before[kind][i]!, extraArgs: [] })
          })
        }
      }
    },
  )

  test('as the suites read them: VIRNUCPRO_BENCH_PIPELINE_ARGS through the settings (run-context.ts passes them)', () => {
    const settings = suiteSettings({ VIRNUCPRO_BENCH_PIPELINE_ARGS: `--esm-batch-size 4096 --label 'two words'` })
    startsWithUser(configsFor('reference', 'tiny', settings.device, settings.pipelineArgs).base([0]))
  })

  test("the capacity answer's configurations, the settings study's and the sweep's carry them too", () => {
    const configs = configsFor('virnucpro', 'full', 'gpu', USER)
    const capacity = capacityConfigs({ settings: { capacityGpus: null } as never, gpuCount: 2, configs })
    expect(capacity.configs.map((c) => c.gpuCount)).toEqual([1, 2])
    for (const { config } of capacity.configs) startsWithUser(config)
    const study = gridSettings({ '--dnabert-batch-size': [8192] }, capacity.configs[0]!.config, {
      state: 'unavailable',
      problem: 'not read in this test',
    })
    for (const s of study.settings) {
      startsWithUser(s.config)
      for (const { config } of withOptions(capacity.configs, s)) startsWithUser(config)
    }
    for (const config of expandGrid(configs.base([0]), { '--dnabert-batch-size': [8192] })) startsWithUser(config)
  })
})

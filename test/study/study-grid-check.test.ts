// Issue 56: a grid the target's help contradicts is refused by runStudySuite before its first run (the help given
// here, as the study reads it before the screen); a flag the default gives and a point leaves out is taken away, and
// the setting asks for the architecture its own command line asks for.
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import type { SuiteContext } from '../../src/engine/context.ts'
import { type SweepGrid, SweepGridError } from '../../src/engine/sweep-grid.ts'
import { parseHelpOptions } from '../../src/pipeline/help-options.ts'
import { gridSettings } from '../../src/study/grid-settings.ts'
import { runStudySuite, withOptions } from '../../src/study/study.ts'

const options = parseHelpOptions(
  readFileSync(new URL('../fixtures/help/virnucpro-predict.txt', import.meta.url), 'utf8'),
)

/** What runStudySuite throws for `grid` on a default command line of `baseArgs`; nothing is measured. */
async function refusal(grid: SweepGrid, baseArgs: string[] = []): Promise<unknown> {
  // No context, measure or input: a run would fail on them, so the refusal is known to come before any run.
  const none = {} as never
  return runStudySuite({} as SuiteContext, none, {
    grid,
    configs: [{ config: { label: '1 GPU', gpus: [0], extraArgs: baseArgs }, gpuCount: 1 }],
    ladder: [],
    capacityInputs: [],
    help: { state: 'read', text: '', options },
  }).then(
    () => null,
    (error: unknown) => error,
  )
}

describe('runStudySuite refuses a bad grid before any run', () => {
  test('true/false for an option that takes a value', async () => {
    const e = await refusal({ '--esm-batch-size': [true, false] })
    expect(e).toBeInstanceOf(SweepGridError)
    expect((e as Error).message).toMatch(/^the settings study's grid: --esm-batch-size takes a value \(/)
  })

  test('a flag the default gives, left out: taken away, and the setting asks the architecture that leaves', () => {
    const base = { label: '1 GPU, v2.0', gpus: [0], extraArgs: ['--parallel'], architecture: 'v2.0' as const }
    const { settings } = gridSettings({ '--parallel': [true, false] }, base, { state: 'read', text: '', options })
    // --parallel true is the default itself: one setting, without it.
    expect(settings.map((s) => [s.label, s.config.extraArgs, s.config.architecture])).toEqual([
      ['no --parallel', [], 'v1.0'],
    ])
    const [winner] = withOptions([{ config: base, gpuCount: 1 }], settings[0]!)
    expect(winner!.config).toMatchObject({ label: 'no --parallel, 1 GPU, v1.0', extraArgs: [], architecture: 'v1.0' })
  })
})

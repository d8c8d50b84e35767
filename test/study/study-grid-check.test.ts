// Issue 56: a grid the target's help contradicts, or that asks a setting to take away a flag the default gives, is
// refused by runStudySuite before its first run (the help given here, as the study reads it before the screen).
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import type { SuiteContext } from '../../src/engine/context.ts'
import { type SweepGrid, SweepGridError } from '../../src/engine/sweep-grid.ts'
import { parseHelpOptions } from '../../src/pipeline/help-options.ts'
import { runStudySuite } from '../../src/study/study.ts'

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

  test('a flag the default gives, asked to be left out', async () => {
    const e = await refusal({ '--parallel': [true, false] }, ['--parallel'])
    expect((e as Error).message).toBe(
      "the settings study's grid: --parallel false: the default's command line gives --parallel, and a setting only adds options to it (a flag has no form that takes it back): drop false from --parallel's list",
    )
  })
})

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, onTestFinished, test } from 'vitest'
import { referenceProfile, selectProfile, TargetConfigError, virnucproProfile } from '../../src/pipeline/profiles.ts'
import { PYTHON } from './support/fake-profile.ts'

describe('selectProfile', () => {
  test('config name first, then VIRNUCPRO_BENCH_TARGET, then reference', () => {
    expect(selectProfile('virnucpro', { VIRNUCPRO_BENCH_TARGET: 'reference' }).name).toBe('virnucpro')
    expect(selectProfile(undefined, { VIRNUCPRO_BENCH_TARGET: 'virnucpro' }).name).toBe('virnucpro')
    expect(selectProfile(undefined, {}).name).toBe('reference')
  })

  test('an unknown name throws, naming the value and its source', () => {
    expect(() => selectProfile(undefined, { VIRNUCPRO_BENCH_TARGET: 'vnp' })).toThrow(
      new TargetConfigError(
        "unknown target 'vnp' (from VIRNUCPRO_BENCH_TARGET); expected one of: virnucpro, reference",
      ),
    )
  })
})

describe('preflight', () => {
  test('virnucpro says why it cannot run when VIRNUCPRO_DIR is unset', async () => {
    expect(await virnucproProfile.preflight({}, 0)).toEqual({
      state: 'unavailable',
      reason: 'VIRNUCPRO_DIR is not set (it must name a VirNucPro checkout)',
    })
  })

  test('virnucpro says when its python is missing', async () => {
    const env = { VIRNUCPRO_DIR: tmpdir(), VIRNUCPRO_PYTHON: '/nonexistent/python' }
    expect(await virnucproProfile.preflight(env, 0)).toEqual({
      state: 'unavailable',
      reason: "python not found: '/nonexistent/python'",
    })
  })

  test('virnucpro says when the module is not importable from the checkout', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vnp-'))
    onTestFinished(() => rm(dir, { recursive: true, force: true }))
    const result = await virnucproProfile.preflight({ VIRNUCPRO_DIR: dir, VIRNUCPRO_PYTHON: PYTHON }, 0)
    expect(result).toEqual({
      state: 'unavailable',
      reason: `module 'virnucpro' is not importable by '${PYTHON}' (cwd ${dir})`,
    })
  })

  test('the reference pipeline is ready on the CPU here, and says "no GPU" when one is needed', async () => {
    const cpu = await referenceProfile.preflight(process.env, 0)
    expect(cpu.state).toBe('ready')
    const gpu = await referenceProfile.preflight(process.env, 1)
    expect(gpu).toEqual({ state: 'unavailable', reason: 'no GPU: 1 needed, torch sees 0' })
  })
})

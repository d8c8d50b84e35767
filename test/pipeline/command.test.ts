import { describe, expect, test } from 'vitest'
import { buildCommand } from '../../src/pipeline/command.ts'
import { referenceProfile, type TargetProfile } from '../../src/pipeline/profiles.ts'

const launcher = { file: 'python3', args: ['-m', 'virnucpro'], cwd: '/src/virnucpro', env: { A: '1' } }

describe('buildCommand', () => {
  test('puts group options before predict and always ends the contract part with --force', () => {
    const cmd = buildCommand(referenceProfile, launcher, {
      input: 'in.fa',
      outputDir: 'out',
      groupArgs: ['-v'],
      extraArgs: ['--model-scale', 'tiny'],
      env: { B: '2' },
    })
    expect(cmd).toEqual({
      file: 'python3',
      args: ['-m', 'virnucpro', '-v', 'predict', 'in.fa', '-o', 'out', '--force', '--model-scale', 'tiny'],
      cwd: '/src/virnucpro',
      env: { A: '1', B: '2' },
    })
  })

  test('a profile that selects GPUs by environment sets CUDA_VISIBLE_DEVICES instead of --gpus', () => {
    const byEnv: TargetProfile = { ...referenceProfile, gpuSelection: 'cuda-visible-devices' }
    const cmd = buildCommand(byEnv, launcher, { input: 'in.fa', outputDir: 'out', gpus: [1, 3] })
    expect(cmd.args).not.toContain('--gpus')
    expect(cmd.env.CUDA_VISIBLE_DEVICES).toBe('1,3')
  })

  test('the --gpus profile passes the list as given', () => {
    const cmd = buildCommand(referenceProfile, launcher, { input: 'in.fa', outputDir: 'out', gpus: [2, 3] })
    expect(cmd.args.slice(-3)).toEqual(['--gpus', '2,3', '--force'])
    expect(cmd.env.CUDA_VISIBLE_DEVICES).toBeUndefined()
  })
})

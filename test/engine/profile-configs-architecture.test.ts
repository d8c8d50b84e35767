// Issue 56: VirNucPro recommends --parallel (v2.0), and --gpus 0 alone runs v1.0: the suite's configuration users run
// is v2.0 at every GPU count, one GPU included, named so, and v1.0 is the baseline beside it (no --parallel on one
// GPU, --v1-fallback on more). Both pipelines take the same flags.
import { describe, expect, test } from 'vitest'
import { configsFor } from '../../src/engine/profile-configs.ts'

describe.for(['virnucpro', 'reference'] as const)('%s configurations', (profile) => {
  const configs = configsFor(profile, 'tiny', 'gpu')

  test('the configuration users run is v2.0 on every GPU count, asked for and named', () => {
    for (const gpus of [[0], [0, 1], [0, 1, 2, 3]]) {
      const base = configs.base(gpus)
      expect(base.architecture).toBe('v2.0')
      expect(base.extraArgs).toContain('--parallel')
      expect(base.extraArgs).not.toContain('--v1-fallback')
      expect(base.label).toBe(`${gpus.length} GPU${gpus.length === 1 ? '' : 's'}, v2.0`)
    }
  })

  test('the v1.0 baseline: no --parallel on one GPU, --v1-fallback on more, asked for and named', () => {
    const one = configs.v1([0])
    expect(one).toMatchObject({ architecture: 'v1.0', label: '1 GPU, v1.0' })
    expect(one.extraArgs).not.toContain('--parallel')
    const two = configs.v1([0, 1])
    expect(two).toMatchObject({ architecture: 'v1.0', label: '2 GPUs, v1.0' })
    expect(two.extraArgs).toContain('--v1-fallback')
  })

  test('on the CPU the architecture and its flags stay, the label says where it ran', () => {
    const cpu = configsFor(profile, 'tiny', 'cpu')
    expect(cpu.base([0])).toMatchObject({ architecture: 'v2.0', label: '1 GPU, v2.0 (cpu)' })
    expect(cpu.base([0]).extraArgs).toContain('--parallel')
    expect(cpu.v1([0])).toMatchObject({ architecture: 'v1.0', label: '1 GPU, v1.0 (cpu)' })
  })
})

// Issue 56: every arm of e2e's optimization matrix runs on the path of the pipeline that reads its switches (read
// from VirNucPro's source and the reference pipeline's: optimization-matrix/*-switches.ts), and a switch that no path
// reads on the GPUs given is left out, saying why.
import { describe, expect, test } from 'vitest'
import type { MatrixArm } from '../../../src/engine/optimization-matrix/index.ts'
import { configsFor } from '../../../src/engine/profile-configs.ts'

const states = (arm: MatrixArm) => Object.fromEntries(arm.states.map((s) => [s.switch.name, s.on]))

describe('VirNucPro: the matrix on v2.0, where packing is read', () => {
  test('1 GPU: every arm passes --parallel (v2.0; `--gpus 0` alone is v1.0, which never reads the packing switch)', () => {
    const { arms } = configsFor('virnucpro', 'full', 'gpu', []).matrix([0])
    expect(arms.map((a) => a.config.label)).toEqual([
      '1 GPU, v2.0, baseline (no packing, fp32)',
      '1 GPU, v2.0, packing',
      '1 GPU, v2.0, fp16',
      '1 GPU, v2.0, all (packing, fp16)',
    ])
    for (const arm of arms) {
      expect(arm.config.extraArgs).toContain('--parallel')
      expect(arm.config.gpus).toEqual([0])
      const on = states(arm)
      expect(arm.config.env?.VIRNUCPRO_DISABLE_PACKING === 'true').toBe(!on.packing)
      expect(arm.config.env?.VIRNUCPRO_DISABLE_FP16 === '1').toBe(!on.fp16)
    }
    expect(arms.map(states)).toEqual([
      { packing: false, fp16: false },
      { packing: true, fp16: false },
      { packing: false, fp16: true },
      { packing: true, fp16: true },
    ])
  })

  test('1 GPU: CUDA streams are read by no path (only the multi-GPU worker pools take them): not run, with why', () => {
    const { arms, notRun } = configsFor('virnucpro', 'full', 'gpu', []).matrix([0])
    expect(arms.flatMap((a) => a.config.extraArgs ?? []).filter((x) => x.includes('cuda-streams'))).toEqual([])
    expect(notRun).toEqual([
      {
        label: '1 GPU, cuda streams',
        reason:
          'VirNucPro reads --cuda-streams only in its multi-GPU worker pools (DNABERT-S with --parallel on 2 or more GPUs): on 1 GPU no path reads it',
      },
    ])
  })

  test('2 GPUs: the streams arm joins, every arm still on --parallel, the baseline with --no-cuda-streams', () => {
    const { arms, notRun } = configsFor('virnucpro', 'full', 'gpu', []).matrix([0, 1])
    expect(notRun).toEqual([])
    expect(arms.map((a) => a.config.label)).toEqual([
      '2 GPUs, v2.0, baseline (no packing, fp32, no streams)',
      '2 GPUs, v2.0, packing',
      '2 GPUs, v2.0, fp16',
      '2 GPUs, v2.0, cuda streams',
      '2 GPUs, v2.0, all (packing, fp16, cuda streams)',
    ])
    for (const arm of arms) {
      expect(arm.config.extraArgs?.filter((x) => x === '--parallel')).toEqual(['--parallel'])
      expect(arm.config.extraArgs).toContain(states(arm)['cuda streams'] ? '--cuda-streams' : '--no-cuda-streams')
    }
  })

  test('the equivalence pair (packing off, on) runs on v2.0 too, the path that reads the switch', () => {
    const pair = configsFor('virnucpro', 'full', 'gpu', []).equivalence([0])
    expect(pair.map((c) => [c.label, c.extraArgs, c.env?.VIRNUCPRO_DISABLE_PACKING])).toEqual([
      ['1 GPU, v2.0, packing off', ['--parallel'], 'true'],
      ['1 GPU, v2.0, packing on', ['--parallel'], undefined],
    ])
  })

  test('persistent models: only the multi-GPU pools read them, so no pair on 1 GPU and a --parallel pair on 2', () => {
    const configs = configsFor('virnucpro', 'full', 'gpu', [])
    expect(configs.persistentModels([0])).toMatch(/only in its multi-GPU worker pools.*on 1 GPU it changes nothing/)
    const pair = configs.persistentModels([0, 1])
    if (typeof pair === 'string') throw new Error(pair)
    expect(pair.map((c) => c.extraArgs)).toEqual([
      ['--parallel', '--persistent-models'],
      ['--parallel', '--no-persistent-models'],
    ])
  })
})

describe('the reference pipeline: packing on v2.0 as VirNucPro reads it, precision and budgets on every path', () => {
  test('every arm passes --parallel, each states its precision and token budget, packing by the same switch', () => {
    const { arms, notRun } = configsFor('reference', 'tiny', 'gpu', []).matrix([0])
    expect(notRun).toEqual([])
    expect(arms.map((a) => a.config.label)).toEqual([
      '1 GPU, v2.0, baseline (no packing, fp32, 8k tokens)',
      '1 GPU, v2.0, packing',
      '1 GPU, v2.0, fp16',
      '1 GPU, v2.0, 32k token budget',
      '1 GPU, v2.0, all (packing, fp16, 32k token budget)',
    ])
    for (const arm of arms) {
      const on = states(arm)
      const args = arm.config.extraArgs!
      expect(args).toContain('--parallel')
      expect(args.join(' ')).toContain(on.fp16 ? '--precision fp16' : '--precision fp32')
      const budget = on['32k token budget'] ? '32768' : '8192'
      expect(args.join(' ')).toContain(`--esm-batch-size ${budget} --dnabert-batch-size ${budget}`)
      expect(arm.config.env?.VIRNUCPRO_DISABLE_PACKING === 'true').toBe(!on.packing)
    }
  })

  test('on the CPU stand-in fp16 is not run (its CPU path runs fp32 only), the rest is', () => {
    const { arms, notRun } = configsFor('reference', 'tiny', 'cpu', []).matrix([0])
    expect(notRun).toEqual([{ label: '1 GPU, fp16 (cpu)', reason: "the reference pipeline's CPU path runs fp32 only" }])
    expect(arms.map((a) => a.config.label)).toEqual([
      '1 GPU, v2.0, baseline (no packing, 8k tokens) (cpu)',
      '1 GPU, v2.0, packing (cpu)',
      '1 GPU, v2.0, 32k token budget (cpu)',
      '1 GPU, v2.0, all (packing, 32k token budget) (cpu)',
    ])
    for (const arm of arms) expect(arm.config.extraArgs?.join(' ')).not.toContain('--precision')
  })
})

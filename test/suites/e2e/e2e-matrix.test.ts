// Issue 56: e2e's optimization matrix believes an arm only when its runs show its switch. Real runs of the reference
// pipeline on the CPU (tiny scale, scripted fake NVML): a packing arm on v2.0 shows its sign and is judged; the same
// switch on the v1.0 path, which never reads VIRNUCPRO_DISABLE_PACKING (as the one-GPU arms of VirNucPro's matrix ran
// before), shows none and is refused in one line, and the rest of the matrix goes on.
import { describe, expect, test } from 'vitest'
import {
  type MatrixArm,
  optimizationMatrix,
  REFERENCE_SWITCHES,
} from '../../../src/engine/optimization-matrix/index.ts'
import { configsFor } from '../../../src/engine/profile-configs.ts'
import type { E2eStats } from '../../../src/suites/e2e/e2e.ts'
import { runE2eSuite } from '../../../src/suites/index.ts'
import { referencePipelineOnCpu } from '../../support/reference-pipeline.ts'
import { cpuConfig, cpuContext, fakeGpu, scripted, tinyInput } from '../support/cpu-suite.ts'

const ready = await referencePipelineOnCpu()

describe.skipIf(ready.state !== 'ready')('the matrix refuses an arm whose run shows no sign of its switch', () => {
  test('packing off on v1.0 is refused, with why; the packing arm on v2.0 is judged; a switch not run says why', async () => {
    const ctx = await cpuContext()
    const input = await tinyInput(5)
    const m = scripted([fakeGpu(85)], 1, 0, input)
    const packing = REFERENCE_SWITCHES.filter((s) => s.name === 'packing')
    // The matrix as configsFor builds it, on the CPU at tiny scale: baseline (packing off) and packing, both v2.0.
    const built = optimizationMatrix(packing, 1, 'cpu', (label, args, env) => ({ ...cpuConfig(label, args), env }))
    const [baseline, packed] = built.arms as [MatrixArm, MatrixArm]
    // The arm as the one-GPU matrix ran it before: no --parallel, so v1.0, whose ESM-2 never reads the switch.
    const v1 = cpuConfig('1 GPU, v1.0, no packing', [])
    const unread: MatrixArm = { config: { ...v1, env: baseline.config.env }, states: baseline.states }
    const notRun = configsFor('reference', 'tiny', 'cpu', []).matrix([0]).notRun
    const { record } = await runE2eSuite(ctx, m, 1, {
      typical: { config: cpuConfig('typical'), input },
      large: null,
      matrix: { matrix: { arms: [baseline, packed, unread], notRun }, input },
    })

    const byId = (label: string) => record.verdicts.find((v) => v.id === `e2e/matrix/${label}`)
    expect(byId('1 GPU, v1.0, no packing')).toMatchObject({ verdict: 'skipped', value: null })
    expect(byId('1 GPU, v1.0, no packing')?.detail).toMatch(
      /^refused: run '1 GPU, v1\.0, no packing[^']*', packing off: its ESM-2 stage ran on v1\.0, and only v2\.0's async inference reads VIRNUCPRO_DISABLE_PACKING$/,
    )
    expect(['pass', 'fail', 'inconclusive']).toContain(byId(packed.config.label)?.verdict)
    expect(byId(packed.config.label)?.value).toBeGreaterThan(0)
    // The baseline showed its sign (the pipeline's 'packing disabled' line on v2.0): no line of its own.
    expect(byId(baseline.config.label)).toBeUndefined()
    expect(byId('1 GPU, fp16 (cpu)')).toMatchObject({
      verdict: 'skipped',
      detail: "not run: the reference pipeline's CPU path runs fp32 only",
    })
    const stats = (record.stats as unknown as E2eStats).matrix!
    expect(stats.baselineRefused).toBeNull()
    expect(stats.arms.map((a) => [a.label, a.refused === null, a.speedup === null])).toEqual([
      [packed.config.label, true, false],
      ['1 GPU, v1.0, no packing', false, true],
    ])
    expect(record.state).toBe('completed')
  })
})

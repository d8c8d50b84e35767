// The bundled reference pipeline's own `predict --help`, read through its profile's launcher as a real process on the
// CPU (python3 with torch; skipped with the reason where it cannot run). In the integration project: importing torch
// before argparse answers takes about 2 s.
import { describe, expect, test } from 'vitest'
import { referenceProfile } from '../../src/pipeline/profiles.ts'
import { readStageOptions, readTargetHelp } from '../../src/pipeline/target-help.ts'
import { referencePipelineOnCpu } from '../support/reference-pipeline.ts'

const ready = await referencePipelineOnCpu()

describe.skipIf(ready.state !== 'ready')("the reference pipeline's predict --help", () => {
  test('reads every option with its help, the embedding stages their batch budgets', async () => {
    const help = await readTargetHelp(referenceProfile)
    expect(help.state, help.state === 'unavailable' ? help.problem : '').toBe('read')
    if (help.state !== 'read') return
    expect(help.text).toMatch(/^usage: refpipe predict/)
    const flags = help.options.map((o) => o.flags.at(-1))
    for (const flag of ['--dnabert-batch-size', '--esm-batch-size', '--num-workers', '--gpus', '--inject'])
      expect(flags).toContain(flag)
    expect(help.options.find((o) => o.flags.includes('-w'))).toMatchObject({
      help: 'DataLoader workers (4)',
      default: '4',
    })

    const read = await readStageOptions(referenceProfile)
    const stage = (name: string) => read.stageOptions.find((g) => g.stage === name)?.options.map((o) => o.flag)
    expect(stage('DNABERT-S Feature Extraction')).toEqual(['--dnabert-batch-size'])
    // --v1-fallback's help names ESM-2, word for word VirNucPro's, whose help it lands under ESM-2 too.
    expect(stage('ESM-2 Feature Extraction')).toEqual(['--esm-batch-size', '--v1-fallback'])
  }, 60_000)
})

import { writeFile } from 'node:fs/promises'
import { beforeEach, describe, expect, test } from 'vitest'
import type { TargetEvent } from '../../src/pipeline/events.ts'
import { referenceProfile } from '../../src/pipeline/profiles.ts'
import { type RunTargetOptions, runTarget } from '../../src/pipeline/runner.ts'
import { PIPELINE_STAGES } from '../../src/pipeline/stages.ts'
import { referencePipelineOnCpu } from '../support/reference-pipeline.ts'
import { useWorkdir } from './support/fake-profile.ts'

/** End to end against the bundled reference pipeline on the CPU (tiny model scale): real torch, real processes. */

// Gene-like records (no stop codon in frame 1), so the embedding stages get work even for a tiny input.
const FASTA = `>s1\n${'ATGAAACCCGGGTTTAAACCCGGG'.repeat(20)}\n>s2\n${'ATGCCCAAAGGGTTTCCCAAAGGG'.repeat(15)}\n`

const ready = await referencePipelineOnCpu()

const work = useWorkdir()
beforeEach(async () => {
  await writeFile(work.input, FASTA)
})

function run(inject: string[], more: Partial<RunTargetOptions> = {}) {
  return runTarget(referenceProfile, {
    input: work.input,
    outputDir: work.outputDir,
    device: 'cpu',
    modelType: '300',
    env: { FAKE_RUN_TAG: work.tag },
    graceMs: 2_000,
    ...more,
    extraArgs: ['--model-scale', 'tiny', ...inject.flatMap((i) => ['--inject', i]), ...(more.extraArgs ?? [])],
  })
}

describe.skipIf(ready.state !== 'ready')(`reference pipeline on CPU (${JSON.stringify(ready)})`, () => {
  test('a run completes with the 9 stages in order, outputs parsed and stage spans within the wall time', async () => {
    const events: TargetEvent[] = []
    const record = await run([], { onEvent: (e) => events.push(e) })
    expect(record).toMatchObject({ exitClass: 'completed', exitCode: 0, outputs: { state: 'found' } })
    const starts = events.filter((e) => e.type === 'stage-start').map((e) => e.name)
    expect(starts).toEqual(PIPELINE_STAGES)
    expect(events.at(-1)?.type).toBe('summary')
    expect(record.stages.map((s) => [s.index, s.name])).toEqual(PIPELINE_STAGES.map((name, i) => [i + 1, name]))
    expect(record.stageMismatches).toEqual([])
    const spanSumMs = record.stages.reduce((sum, s) => sum + (s.receivedDurationMs ?? 0), 0)
    expect(spanSumMs).toBeLessThanOrEqual(record.wallMs)
    // The rest of the wall time is interpreter start-up, torch import and exit, outside every stage.
    expect(record.wallMs - spanSumMs).toBeLessThan(10_000)
    const loggedSumS = record.stages.reduce((sum, s) => sum + (s.logDurationS ?? 0), 0)
    expect(Math.abs(loggedSumS * 1000 - spanSumMs)).toBeLessThan(9 * 50 + 200)
    if (record.outputs.state === 'found') expect(record.outputs.predictions.rows).toBeGreaterThan(0)
  })

  test('crash-at a stage is failed with exit code 1', async () => {
    const record = await run(['crash-at=ESM-2 Feature Extraction'])
    expect(record).toMatchObject({ exitClass: 'failed', exitCode: 1 })
    expect(record.stages.at(-1)).toMatchObject({ name: 'ESM-2 Feature Extraction', endMs: null })
  })

  test('partial is exit code 2 with outputs still read', async () => {
    expect(await run(['partial'])).toMatchObject({ exitClass: 'partial', exitCode: 2, outputs: { state: 'found' } })
  })

  test('oom is exit code 4', async () => {
    expect(await run(['oom'])).toMatchObject({ exitClass: 'oom', exitCode: 4 })
  })

  test('hang-at a stage ends as timeout, with no survivor in /proc', async () => {
    const record = await run(['hang-at=DNABERT-S Feature Extraction'], { timeoutMs: 5_000 })
    expect(record).toMatchObject({ exitClass: 'timeout', signal: null })
    expect(record.stages.at(-1)).toMatchObject({ name: 'DNABERT-S Feature Extraction', endMs: null })
    expect(record.cleanup).toMatchObject({ signalsSent: ['SIGTERM'], survivors: [] })
  })

  test('a run interrupted mid-stage leaves nothing running', async () => {
    const controller = new AbortController()
    const record = await run(['slow-stage=ESM-2 Feature Extraction:30'], {
      abortSignal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'stage-start' && e.name === 'ESM-2 Feature Extraction') setTimeout(() => controller.abort(), 300)
      },
    })
    expect(record).toMatchObject({ exitClass: 'failed', reason: 'aborted by the caller' })
    expect(record.stages.at(-1)).toMatchObject({ name: 'ESM-2 Feature Extraction', endMs: null })
  })
})

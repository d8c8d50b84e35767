import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { execa } from 'execa'
import { expect, test } from 'vitest'
import { generateFixture } from '../src/input/generate.ts'
import { resolveParams } from '../src/input/presets.ts'
import { referenceProfile } from '../src/pipeline/profiles.ts'
import { runTarget } from '../src/pipeline/runner.ts'
import { findTorchPython } from '../src/platform/python.ts'

/**
 * The reference pipeline at `full` scale (DNABERT-S BERT-base shape, ESM-2 3B shape, fp16) on the MEDIUM fixture on
 * one GPU. Target: the ESM-2 stage keeps the GPU fed, i.e. its throughput is at least 60% of the bare encoder's rate
 * measured on the same machine in the same call (`refpipe encoder-bench`, batch 128 x 170 tokens as in NVML.md).
 * Run on a GPU host: npx vitest bench --project 'gpu (bench)' benchmarks/refpipe.gpu.bench.ts
 */

const REFPIPE_ROOT = resolve(import.meta.dirname, '../reference-pipeline')
const TARGET_SHARE = 0.6
const GPU = process.env.REFPIPE_BENCH_GPU ?? '0'

interface StageFigures {
  stageSeconds: Record<string, number>
  esmLoopTokensPerS: number
  esmLoopSequencesPerS: number
  esmTokens: number
  esmProteins: number
}

async function refpipe(python: string, args: string[]): Promise<string> {
  const result = await execa(python, ['-m', 'refpipe', ...args], {
    env: { PYTHONPATH: REFPIPE_ROOT, REFPIPE_INJECT: '' },
    stdin: 'ignore',
    reject: false,
  })
  if (result.exitCode !== 0)
    throw new Error(`refpipe ${args[0]} exited ${result.exitCode}:\n${result.stdout}\n${result.stderr}`)
  return String(result.stdout)
}

/** One `predict` through the runner: stage spans and extras from its run record, the ESM-2 loop rate from its events. */
async function predictOnce(fasta: string, outputDir: string): Promise<StageFigures> {
  let loop: { sequencesPerS: number | null; tokensPerS: number | null } | null = null
  const record = await runTarget(referenceProfile, {
    input: fasta,
    outputDir,
    device: `cuda:${GPU}`,
    env: { REFPIPE_INJECT: '' },
    extraArgs: ['--model-scale', 'full', '--precision', 'fp16'],
    onEvent: (e) => {
      if (e.type === 'inference-complete') loop = e
    },
  })
  if (record.exitClass !== 'completed')
    throw new Error(`refpipe predict ${record.exitClass}: ${record.reason}\n${record.logTail.join('\n')}`)
  const stageSeconds = Object.fromEntries(record.stages.map((s) => [s.name, s.logDurationS ?? Number.NaN]))
  const esm = record.stages.find((s) => s.name === 'ESM-2 Feature Extraction')
  const found = loop as { sequencesPerS: number | null; tokensPerS: number | null } | null
  if (!esm || !found?.tokensPerS || typeof esm.extras.tokens !== 'number' || typeof esm.extras.proteins !== 'number')
    throw new Error(`ESM-2 figures missing from the run record (log: ${record.logPath})`)
  return {
    stageSeconds,
    esmLoopSequencesPerS: found.sequencesPerS ?? Number.NaN,
    esmLoopTokensPerS: found.tokensPerS,
    esmProteins: esm.extras.proteins,
    esmTokens: esm.extras.tokens,
  }
}

test('refpipe ESM-2 stage vs bare encoder (full, fp16, 1 GPU, MEDIUM)', async ({ bench, annotate }) => {
  const probe = findTorchPython()
  if (probe.state !== 'found') throw new Error(probe.reason)
  const dir = await mkdtemp(join(tmpdir(), 'refpipe-bench-'))
  try {
    const fasta = join(dir, 'fixture', 'part-001.fa')
    await generateFixture(resolveParams('MEDIUM', { seed: 1 }), join(dir, 'fixture'))
    const bareLog = await refpipe(probe.executable, [
      'encoder-bench',
      '--scale',
      'full',
      '--precision',
      'fp16',
      '-d',
      `cuda:${GPU}`,
    ])
    const bare = JSON.parse(/Encoder bench result: (\{.*\})$/m.exec(bareLog)![1]!) as {
      tokensPerS: number
      sequencesPerS: number
    }
    let figures: StageFigures | undefined
    const result = await bench('refpipe predict, full fp16, 1 GPU, MEDIUM', async () => {
      figures = await predictOnce(fasta, join(dir, 'out'))
    }).run({ iterations: 1, warmupIterations: 0, time: 0 })
    const f = figures!
    const esmStageS = f.stageSeconds['ESM-2 Feature Extraction']!
    const stageTokensPerS = f.esmTokens / esmStageS
    const share = f.esmLoopTokensPerS / bare.tokensPerS
    const note = [
      `bare encoder (128 x 170 tokens): ${Math.round(bare.tokensPerS)} tok/s, ${bare.sequencesPerS.toFixed(1)} seq/s`,
      `ESM-2 stage loop: ${f.esmLoopTokensPerS} tok/s, ${f.esmLoopSequencesPerS} seq/s (${(share * 100).toFixed(1)}% of bare)`,
      `ESM-2 stage incl. model build: ${Math.round(stageTokensPerS)} tok/s over ${esmStageS}s, ${f.esmProteins} proteins`,
      `stages (s): ${Object.entries(f.stageSeconds)
        .map(([k, v]) => `${k} ${v}`)
        .join('; ')}`,
      `end-to-end mean: ${(result.latency.mean / 1000).toFixed(1)} s`,
    ].join('\n')
    console.log(note)
    await annotate(note)
    expect(share).toBeGreaterThanOrEqual(TARGET_SHARE)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

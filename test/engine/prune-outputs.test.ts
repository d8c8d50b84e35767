import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { pruneTensorOutputs } from '../../src/engine/prune-outputs.ts'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'prune-'))
  await mkdir(join(dir, 'in_merged'), { recursive: true })
  await mkdir(join(dir, 'esm_v2/logs'), { recursive: true })
  for (const name of [
    'in_merged/output_0_merged.pt',
    'in_merged/prediction_results.txt',
    'x.pt',
    'target.log',
    // VirNucPro v2's ESM-2 writes HDF5: a shard per GPU and their merge, beside its index and worker logs.
    'esm_v2/shard_0.h5',
    'esm_v2/embeddings.h5',
    'esm_v2/sequence_index.json',
    'esm_v2/logs/worker_0.log',
  ])
    await writeFile(join(dir, name), 'x')
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

test('removes tensor files (.pt, .h5) at any depth and keeps predictions, indexes and logs', async () => {
  expect(await pruneTensorOutputs(dir, {})).toBe(4)
  expect((await readdir(dir, { recursive: true })).sort()).toEqual([
    'esm_v2',
    'esm_v2/logs',
    'esm_v2/logs/worker_0.log',
    'esm_v2/sequence_index.json',
    'in_merged',
    'in_merged/prediction_results.txt',
    'target.log',
  ])
})

test('VIRNUCPRO_BENCH_KEEP_OUTPUTS=1 keeps everything', async () => {
  expect(await pruneTensorOutputs(dir, { VIRNUCPRO_BENCH_KEEP_OUTPUTS: '1' })).toBe(0)
  expect(await readdir(dir, { recursive: true })).toContain('x.pt')
})

test('a missing directory is not an error', async () => {
  expect(await pruneTensorOutputs(join(dir, 'nope'), {})).toBe(0)
})

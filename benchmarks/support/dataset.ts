import { existsSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { test as baseTest } from 'vitest'
import { generateFixture } from '../../src/fixtures/generate.ts'
import { type GeneratedManifest, paramsHash } from '../../src/fixtures/manifest.ts'
import { readManifest } from '../../src/fixtures/manifest-read.ts'
import { type FixtureOverrides, GENERATOR_VERSION, type PresetName, resolveParams } from '../../src/fixtures/presets.ts'

/**
 * Datasets for benchmarks, generated once and cached on disk by parameter hash (generator version included), so
 * repeated runs reuse them. Each cache entry appears atomically (generated in a temporary directory, then renamed), so
 * two workers racing for the same dataset both end up with a complete one.
 */

/** `.fixtures-cache/` at the repository root (git-ignored). */
export const DATASET_CACHE_DIR = resolve(import.meta.dirname, '..', '..', '.fixtures-cache')

export interface DatasetRequest {
  preset: PresetName
  overrides?: FixtureOverrides
}

export interface Dataset {
  dir: string
  /** Absolute paths of part-001.fa ... */
  files: string[]
  manifest: GeneratedManifest
  /** True when the cache already held it. */
  reused: boolean
}

/** A complete cache entry: manifest for these parameters, every file present at its recorded size. */
async function readCached(dir: string, hash: string): Promise<GeneratedManifest | undefined> {
  if (!existsSync(join(dir, 'manifest.json'))) return undefined
  const manifest = await readManifest(dir).catch(() => undefined)
  if (manifest?.kind !== 'generated' || manifest.paramsHash !== hash) return undefined
  for (const file of manifest.files) {
    const size = await stat(join(dir, file.name)).then(
      (s) => s.size,
      () => -1,
    )
    if (size !== file.bytes) return undefined
  }
  return manifest
}

/**
 * The dataset for a preset and overrides, from the cache or freshly generated into it.
 * @throws RangeError naming a bad parameter; I/O errors.
 */
export async function cachedDataset(request: DatasetRequest, cacheDir = DATASET_CACHE_DIR): Promise<Dataset> {
  const params = resolveParams(request.preset, request.overrides)
  const hash = paramsHash(GENERATOR_VERSION, params)
  const dir = join(cacheDir, hash)
  const files = (manifest: GeneratedManifest) => manifest.files.map((file) => join(dir, file.name))
  const cached = await readCached(dir, hash)
  if (cached) return { dir, files: files(cached), manifest: cached, reused: true }
  try {
    const manifest = await generateFixture(params, dir)
    return { dir, files: files(manifest), manifest, reused: false }
  } catch (error) {
    // Another worker may have published the same entry first; theirs is as good as ours.
    const raced = await readCached(dir, hash)
    if (raced) return { dir, files: files(raced), manifest: raced, reused: true }
    throw error
  }
}

/**
 * `test` with a `dataset` fixture: set `datasetRequest` (default TINY) with `test.override({ datasetRequest: ... })`
 * in a describe block, and read `dataset` in the test.
 */
export const test = baseTest
  .extend('datasetRequest', { preset: 'TINY' } as DatasetRequest)
  .extend('dataset', async ({ datasetRequest }) => cachedDataset(datasetRequest))

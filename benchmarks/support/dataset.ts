import { test as baseTest } from 'vitest'
import {
  cachedDataset as cachedIn,
  type Dataset,
  type DatasetRequest,
  FIXTURES_CACHE_DIR,
} from '../../src/input/dataset-cache.ts'

export type { Dataset, DatasetRequest }

/** `.fixtures-cache/` at the repository root (git-ignored): where benchmarks keep generated datasets and subsets. */
export const DATASET_CACHE_DIR = FIXTURES_CACHE_DIR

/** The dataset for a preset and overrides, from the cache (default `.fixtures-cache/`) or freshly generated into it. */
export function cachedDataset(request: DatasetRequest, cacheDir = DATASET_CACHE_DIR): Promise<Dataset> {
  return cachedIn(request, cacheDir)
}

/**
 * `test` with a `dataset` fixture: set `datasetRequest` (default TINY) with `test.override({ datasetRequest: ... })`
 * in a describe block, and read `dataset` in the test.
 */
export const test = baseTest
  .extend('datasetRequest', { preset: 'TINY' } as DatasetRequest)
  .extend('dataset', async ({ datasetRequest }) => cachedDataset(datasetRequest))

import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * Deletes the target's tensor files (`*.pt`: per-file embeddings and merged features; `*.h5`: VirNucPro v2's ESM-2
 * shards and their merge) from a run's output directory once the run has been read, keeping predictions and logs. They
 * are what the pipeline writes most of (~13 KB per sequence: a 2,000-sequence run leaves ~26 MB, PRODUCTION ~80 GB; the
 * real VirNucPro's 2-GPU path left 125 MB of `.h5` at 3,750 records on an H100 host, each shard written twice) and no
 * suite reads them. VIRNUCPRO_BENCH_KEEP_OUTPUTS=1 keeps
 * them. Returns how many files it removed; a file that cannot be removed is left in place (never fatal).
 */
const TENSOR_FILE = /\.(pt|h5)$/

export async function pruneTensorOutputs(outputDir: string, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (env.VIRNUCPRO_BENCH_KEEP_OUTPUTS?.trim() === '1') return 0
  let removed = 0
  const entries = await readdir(outputDir, { recursive: true, withFileTypes: true }).catch(() => [])
  for (const entry of entries) {
    if (!entry.isFile() || !TENSOR_FILE.test(entry.name)) continue
    await rm(join(entry.parentPath, entry.name), { force: true }).then(
      () => removed++,
      () => undefined,
    )
  }
  return removed
}

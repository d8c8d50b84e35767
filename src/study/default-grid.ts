/**
 * The grid a settings study screens when VIRNUCPRO_BENCH_SWEEP gives none: the options that move the stage each
 * target's capacity answer finds holding it back, on the GPU count the screen runs on (the host's largest). Each
 * grid point costs two runs a round, so each grid stays at a few settings.
 */
import { DEFAULT_SWEEP_GRID, type SweepGrid } from '../engine/sweep-grid.ts'

/**
 * VirNucPro on 1 GPU: its architecture. Without `--parallel` one GPU runs v1.0, which builds the 3B ESM-2 model again
 * for every file of 10,000 proteins; `--parallel` runs v2.0 (async DataLoader, packing, FP16), 4.0x faster on one
 * 4090 in its own benchmark and the path its README recommends (docs/UPSTREAM.md). Crossed with the one option of a
 * GPU stage that v2.0 reads on one GPU: its ESM-2 reads none from the command line (`--esm-batch-size` is never passed
 * to it), so DNABERT-S, which v2.0 leaves on its v1.0 loop there and which is the heaviest stage after ESM-2 (502 s of
 * 3,201 on one 4090 under v2.0, ESM-2 2,591 s), and whose `--dnabert-batch-size` counts sequences a batch on one GPU
 * (config default 256; 1024 rather than 2048, which VirNucPro silently raises to 3072 on a BF16 GPU); null keeps its
 * default. Not `--dataloader-workers` (never read) nor `--persistent-models` (read on the multi-GPU path only).
 * `no --parallel` with the default batch is the default itself, measured once: three settings.
 *
 * VirNucPro on 2 or more GPUs (v2.0 whatever the flag: a list of GPUs turns `--parallel` on): DNABERT-S's token budget
 * a batch on its multi-GPU path (config default 256 tokens, about 3 reads a batch, while its CLI help says 2048), the
 * stage that holds 6 M back on 2 and 4 GPUs (docs/results/2026-11-27-virnucpro-h200x4/); `--esm-batch-size` is not
 * read on that path either.
 *
 * The reference pipeline: the ESM-2 token budget (the sweep's default), on any GPU count.
 * @param gpuCount the GPU count the screen runs on.
 */
export function defaultStudyGrid(profile: string, gpuCount: number): SweepGrid {
  if (!Number.isInteger(gpuCount) || gpuCount < 1)
    throw new RangeError(`a settings study screens on 1 or more GPUs, got ${gpuCount}`)
  if (profile !== 'virnucpro') return DEFAULT_SWEEP_GRID
  if (gpuCount === 1) return { '--parallel': [true, false], '--dnabert-batch-size': [null, 1024] }
  return { '--dnabert-batch-size': [2048, 8192, 32768] }
}

/** The screen's sizes below the capacity answer's smallest: a quarter of it, then it (each at least 8 records). */
export function studyLadder(capacitySizes: readonly number[]): number[] {
  const smallest = Math.min(...capacitySizes)
  if (!Number.isFinite(smallest) || smallest < 1) throw new RangeError('a settings study needs the capacity sizes')
  return [...new Set([Math.max(8, Math.round(smallest / 4)), smallest])].sort((a, b) => a - b)
}

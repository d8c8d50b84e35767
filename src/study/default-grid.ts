/**
 * The grid a settings study screens when VIRNUCPRO_BENCH_SWEEP gives none: the options that move the stage each
 * target's capacity answer finds holding it back.
 */
import { DEFAULT_SWEEP_GRID, type SweepGrid } from '../engine/sweep-grid.ts'

/**
 * VirNucPro: DNABERT-S's token budget a batch on its multi-GPU path (UPSTREAM.md: config default 256 tokens, about 3
 * reads a batch, while its CLI help says 2048), the stage that holds 6 M back on 2 and 4 GPUs
 * (docs/results/2026-11-27-virnucpro-h200x4/). Its `--esm-batch-size` is not read on that path. The reference
 * pipeline: the ESM-2 token budget (the sweep's default).
 */
export function defaultStudyGrid(profile: string): SweepGrid {
  return profile === 'virnucpro' ? { '--dnabert-batch-size': [2048, 8192, 32768] } : DEFAULT_SWEEP_GRID
}

/** The screen's sizes below the capacity answer's smallest: a quarter of it, then it (each at least 8 records). */
export function studyLadder(capacitySizes: readonly number[]): number[] {
  const smallest = Math.min(...capacitySizes)
  if (!Number.isFinite(smallest) || smallest < 1) throw new RangeError('a settings study needs the capacity sizes')
  return [...new Set([Math.max(8, Math.round(smallest / 4)), smallest])].sort((a, b) => a - b)
}

import type { FileWork } from '../../../src/capacity/per-file.ts'
import type { CapacityRun } from '../../../src/capacity/runs.ts'

const ESM2 = 'ESM-2 Feature Extraction'
const PRE = `pre: ${ESM2}`
const STEADY = `steady: ${ESM2}`

/**
 * A v1-like run (VirNucPro's 1-GPU path) at `size` sequences: 1.6 proteins a sequence in files of 10,000, each file
 * building ESM-2 for `buildMs` before 4 ms a sequence of work; 12 s outside the stage, 3 s of the stage's own start.
 * With `utilPct`, the monitor's view too: the GPU busy at that utilization through the work only (idle in start-up and
 * builds), its first work after the first build.
 */
export function v1Run(size: number, buildMs: (file: number) => number, noiseMs = 0, utilPct?: number): CapacityRun {
  const items = Math.round(1.6 * size)
  const files = Math.max(1, Math.ceil(items / 10_000))
  const builds = Array.from({ length: files }, (_, f) => buildMs(f))
  const setupMs = builds.reduce((a, b) => a + b, 0)
  const steady = 4 * size + noiseMs
  const pre = 3_000 + setupMs
  const values: Record<string, number> = {
    'outside stages': 12_000 + noiseMs,
    [ESM2]: pre + steady,
    [PRE]: pre,
    [STEADY]: steady,
    wall: 0,
  }
  values.wall = values['outside stages']! + values[ESM2]!
  if (utilPct !== undefined) values[`busy: ${ESM2}`] = (steady * utilPct) / 100
  // After the first build, the GPU is busy at utilPct through the work and idle through the later builds.
  const firstWorkMs = 3_000 + builds[0]!
  const afterFirst = pre + steady - firstWorkMs
  const work: FileWork = { files, items, setupMs, itemsPerFile: 10_000 }
  return {
    label: `${size}`,
    size,
    values,
    startup:
      utilPct === undefined
        ? {}
        : { [ESM2]: { startupMs: firstWorkMs, steadyUtilPct: (utilPct * steady) / afterFirst } },
    steady: { [ESM2]: { steadyMs: steady, lines: 2 * files, slowestWorker: null, source: 'file-lines' } },
    files: { [ESM2]: work },
  }
}

/** The true wall time of v1Run at `size` with builds of `buildMs` each. */
export const truthMs = (size: number, buildMs: number) =>
  12_000 + 3_000 + 4 * size + buildMs * Math.max(1, Math.ceil((1.6 * size) / 10_000))

import { analyzeCapacityRuns } from '../../../src/capacity/analyze.ts'
import type { CapacityRun } from '../../../src/capacity/runs.ts'
import { DEFAULT_THRESHOLDS } from '../../../src/config/thresholds.ts'

/**
 * One configuration (`1 GPU`) analyzed from hand-made runs, one record a sequence, on a generated input with nothing
 * else to say: what the capacity model makes of runs whose parts a test chose.
 */
export const analyzeOneConfiguration = (runs: CapacityRun[]) =>
  analyzeCapacityRuns(
    [{ label: '1 GPU', gpuCount: 1, runs, recordsBySize: new Map(runs.map((r) => [r.size, r.size])), failure: null }],
    {
      input: {
        source: 'generated',
        path: '',
        sha256: '',
        records: 0,
        workPerRecord: 0,
        chunkLength: 500,
        preset: null,
      },
      sizes: [...new Set(runs.map((r) => r.size))],
      measuredSequences: Math.max(...runs.map((r) => r.size)),
    },
    DEFAULT_THRESHOLDS,
  )

/** `virnucpro-bench capacity`: refit stored runs and project them to any size (src/cli/capacity.ts). */
import type { CommandSpec } from './command-spec.ts'

export const capacitySpec = {
  name: 'capacity',
  summary:
    'Refit the size model from stored run directories (no GPU time) and project wall time, utilization and speedups to any input size.',
  operands: 'RUN_DIR...',
  positionals: true,
  options: {
    sizes: {
      type: 'string',
      value: 'R1,R2,...',
      description: 'measured sizes (records of the nested subsets) to fit from; default every size measured',
    },
    at: {
      type: 'string',
      value: 'N1,N2,...',
      description:
        'further sizes to project to (sequences), besides the typical and production sizes (45,000, 6,000,000)',
    },
    json: {
      type: 'string',
      value: 'FILE',
      description:
        'also write the refit as JSON to FILE (- for stdout); never inside a run directory nor over a record',
    },
  },
  notes: [
    'Each RUN_DIR is a run directory (results/<runId>) or a results root holding run directories; their records are read (runs several records share, once), grouped by configuration and measured size, and refitted.',
    "A stage's per-sequence rate is read inside every run from its progress lines: from the record, else from the run's work/<run>/target.log (the pipeline's own timestamps: coarser), else the stage is fitted across sizes; the output says which. The monitor series (gpu.jsonl) are not needed: prune them freely.",
    'Thresholds come from the records (they carry their own). Exit 0 when refitted (whatever the verdicts); 2 bad arguments; 3 no runs to fit (no records, or fewer than two sizes of one configuration).',
  ],
  examples: [
    'virnucpro-bench capacity results/2026-11-25T21-00-00Z-c24a',
    'virnucpro-bench capacity results/run-a results/run-b --sizes 1000,4000 --at 20000,1000000 --json refit.json',
  ],
} as const satisfies CommandSpec

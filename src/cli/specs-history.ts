/**
 * What `virnucpro-bench history` accepts, as data (command-spec.ts), apart from specs.ts as the slurm and capacity
 * commands' are: the parsers and `--help` read these.
 */
import { METRIC_FAMILIES } from '../history/metric-names.ts'
import type { CommandSpec } from './command-spec.ts'

const HISTORY_DB = {
  type: 'string',
  value: 'FILE',
  description: 'the history database (default $VIRNUCPRO_BENCH_HISTORY, else history.sqlite in the results root)',
} as const
const HISTORY_JSON = { type: 'boolean', description: 'print the answer as JSON' } as const
const HISTORY_EXIT =
  'Exit 0; 2 bad arguments (an unknown metric lists the known ones); 3 the database cannot be used (missing, empty, not a history, read-only for add, locked after retries, a newer schema), left as it was.'

export const historyAddSpec = {
  name: 'history add',
  summary: "Store a run's headline metrics (verdicts, wall time, J/seq, rates, 6 M projections) in the history.",
  operands: 'RUN_DIR ...',
  positionals: true,
  options: { db: HISTORY_DB },
  notes: [
    'Idempotent: a run (or record) already stored is left as it is and said to be already present. Invalid records are',
    'named with why and skipped; the rest are added, one transaction per run. A RUN_DIR with no valid record is refused',
    '(exit 3) before the database is opened or made.',
    HISTORY_EXIT,
  ],
  examples: ['virnucpro-bench history add results/2026-11-22T05-00-00Z-h3b1 --db ~/bench/history.sqlite'],
} as const satisfies CommandSpec

export const historyListSpec = {
  name: 'history list',
  summary: 'The stored runs, oldest first: run ID, created, host, GPU, commit, records, metrics.',
  options: { db: HISTORY_DB, json: HISTORY_JSON },
  notes: [HISTORY_EXIT],
  examples: ['virnucpro-bench history list --db ~/bench/history.sqlite'],
} as const satisfies CommandSpec

export const historyShowSpec = {
  name: 'history show',
  summary:
    'One metric over the runs in history order (createdAt), with CIs and verdict states, per record, host and GPU.',
  operands: 'METRIC',
  positionals: true,
  options: {
    record: { type: 'string', value: 'ID', description: "only this record id (e.g. 'capacity-1-GPU')" },
    host: { type: 'string', value: 'HOST', description: 'only this host' },
    gpu: { type: 'string', value: 'MODEL', description: "only this GPU model (as NVML names it, or 'no GPU')" },
    db: HISTORY_DB,
    json: HISTORY_JSON,
  },
  notes: [
    'Metric names (unit: where the value comes from):',
    ...METRIC_FAMILIES.map((f) => `  ${f.pattern} (${f.unit}): ${f.from}`),
    HISTORY_EXIT,
  ],
  examples: ["virnucpro-bench history show 'wall/1 GPU' --gpu 'NVIDIA H200'"],
} as const satisfies CommandSpec

export const historyChangesSpec = {
  name: 'history changes',
  summary: 'Change points per metric, record, host and GPU (keys: commits), what moved with each; the newest judged.',
  options: {
    metric: { type: 'string', value: 'METRIC', description: 'only this metric (default: every metric)' },
    'min-effect': {
      type: 'string',
      value: 'X',
      description: "smallest relative change that counts, in (0, 1) (default: the records' regression.timeThreshold)",
    },
    db: HISTORY_DB,
    json: HISTORY_JSON,
    'json-file': {
      type: 'string',
      value: 'FILE',
      description: 'also write the answer as JSON to FILE (the text still goes to stdout): one analysis for both',
    },
  },
  notes: [
    'Exit 1 when a confirmed regression involves the newest commit (for CI gates): a change point into it, or its',
    'points regressed against the last stable window (Mann-Whitney + threshold; needs >= 4 runs of the newest commit).',
    HISTORY_EXIT,
  ],
  examples: [
    'virnucpro-bench history changes --db ~/bench/history.sqlite',
    "virnucpro-bench history changes --metric 'wall/1 GPU' --min-effect 0.05 --json",
  ],
} as const satisfies CommandSpec

export const historySpec = {
  name: 'history',
  summary: 'Regression tracking over time: a SQLite history of run metrics, trends and change points.',
  options: {},
  subcommands: { add: historyAddSpec, list: historyListSpec, show: historyShowSpec, changes: historyChangesSpec },
  examples: ['virnucpro-bench history add results/2026-11-22T05-00-00Z-h3b1', 'virnucpro-bench history changes'],
  notes: ['Exit 0; 1 history changes found a regression at the newest commit; 2 bad arguments; 3 database unusable.'],
} as const satisfies CommandSpec

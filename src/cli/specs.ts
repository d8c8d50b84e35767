/**
 * What every `virnucpro-bench` command accepts, as data (command-spec.ts): the parsers and `--help` both read these.
 * Kept apart from the commands' code so that `virnucpro-bench --help` loads no command.
 */
import { DEFAULT_CODING, PRESET_NAMES } from '../input/presets.ts'
import { SAMPLE_SELECTIONS, STRATIFY_BY } from '../input/sample.ts'
import { DEFAULT_SAMPLER_OPTIONS } from '../monitor/options.ts'
import type { CommandSpec } from './command-spec.ts'
import { capacitySpec } from './specs-capacity.ts'
import { historySpec } from './specs-history.ts'
import { slurmSpec } from './specs-slurm.ts'

export const doctorSpec = {
  name: 'doctor',
  summary:
    'What this machine can do (Node, NVML, driver, GPUs, GPM, python/torch, virnucpro) and whether the settings are right.',
  options: {
    json: { type: 'boolean', description: 'print the findings as JSON instead of lines' },
    settings: {
      type: 'boolean',
      description: 'check only the settings and the input (no GPU or python probe): for a job script before a run',
    },
  },
  examples: [
    'virnucpro-bench doctor',
    'VIRNUCPRO_BENCH_INPUT=sample.fa.gz VIRNUCPRO_BENCH_RUNS=5 virnucpro-bench doctor --settings',
    'VIRNUCPRO_DIR=~/virnucpro VIRNUCPRO_PYTHON=~/venv/bin/python virnucpro-bench doctor',
  ],
  notes: [
    'VIRNUCPRO_DIR and VIRNUCPRO_PYTHON: the checkout and python the virnucpro target runs (as its profile does).',
    'Settings are checked as the gpu project checks them before any run: every VIRNUCPRO_BENCH_* variable (an unknown',
    'name is named with the closest known one), the thresholds file, and the input (read and validated, IDs unique',
    'across its parts). Exit 0: the settings are right (a missing GPU or python is reported, not failed); 1: a setting',
    'is bad, one line each on stderr naming it, the problem and the fix; 2: bad arguments.',
  ],
} as const satisfies CommandSpec

export const fixturesGenerateSpec = {
  name: 'fixtures generate',
  summary: 'Write a seeded FASTA fixture (same seed and version: byte-identical files) with manifest.json.',
  options: {
    preset: { type: 'string', value: 'NAME', description: `size preset: ${PRESET_NAMES.join(', ')} (required)` },
    out: {
      type: 'string',
      value: 'DIR',
      description: 'output directory: new, empty, or an earlier fixture (only the files its manifest names) (required)',
    },
    seed: { type: 'string', value: 'N', description: 'PRNG seed, an integer >= 0 (default 1)' },
    records: {
      type: 'string',
      value: 'N',
      description: "number of records (default: the preset's); refused when the estimated bytes exceed free space",
    },
    'min-length': { type: 'string', value: 'BP', description: 'shortest record in bases' },
    'max-length': { type: 'string', value: 'BP', description: 'longest record in bases' },
    'length-from': {
      type: 'string',
      value: 'FILE',
      description: 'take the length distribution of a FASTA file, or of a fixture (DIR/ or its manifest.json)',
    },
    model: {
      type: 'string',
      value: 'MODEL',
      description: 'coding (genes, stop-free frames) or uniform (default coding)',
    },
    gc: { type: 'string', value: 'X', description: `GC fraction in [0.1, 0.9] (default ${DEFAULT_CODING.gc})` },
    'coding-fraction': {
      type: 'string',
      value: 'X',
      description: `share of bases in genes, in [0.01, 1] (coding model; default ${DEFAULT_CODING.codingFraction})`,
    },
    files: { type: 'string', value: 'N', description: 'split the records over N files part-001.fa ... (default 1)' },
    'line-width': {
      type: 'string',
      value: 'N',
      description: 'bases per FASTA line, 0 for one line per record (default 60)',
    },
  },
  examples: ['virnucpro-bench fixtures generate --preset SMALL --seed 7 --out fixtures/small'],
} as const satisfies CommandSpec

export const fixturesSampleSpec = {
  name: 'fixtures sample',
  summary: 'Subsample a real FASTA (plain or gzip), stratified so the subset keeps its length or GPU-work profile.',
  options: {
    from: { type: 'string', value: 'FILE', description: 'source FASTA file, plain or .gz (required)' },
    records: { type: 'string', value: 'N', description: 'records to keep (required)' },
    out: {
      type: 'string',
      value: 'DIR',
      description: 'output directory: new, empty, or an earlier fixture (only the files its manifest names) (required)',
    },
    seed: { type: 'string', value: 'N', description: 'PRNG seed, an integer >= 0 (default 42)' },
    files: { type: 'string', value: 'N', description: 'split the records over N files (default 1)' },
    stratify: {
      type: 'string',
      value: 'KEY',
      description: `stratify by ${STRATIFY_BY.join(' or ')} (work: the GPU work each record brings; default length)`,
    },
    strata: { type: 'string', value: 'N', description: 'number of strata, at most --records (default 100)' },
    selection: {
      type: 'string',
      value: 'HOW',
      description: `${SAMPLE_SELECTIONS.join(' or ')}: nested samples of one --seed are subsets of each other at every size (default stratified)`,
    },
    'chunk-length': {
      type: 'string',
      value: 'BP',
      description: 'chunk length the work is counted at: 500 or 300 like the model (default 500)',
    },
  },
  examples: [
    'virnucpro-bench fixtures sample --from sample.fa.gz --records 1000 --stratify work --out fixtures/sub1k',
    'virnucpro-bench fixtures sample --from sample.fa.gz --records 8000 --stratify work --selection nested --out fixtures/sub8k',
  ],
} as const satisfies CommandSpec

export const fixturesInspectSpec = {
  name: 'fixtures inspect',
  summary: 'Validate a FASTA file and print its counts, length quantiles, GC and stop-free frames per chunk.',
  operands: 'FILE',
  positionals: true,
  options: {},
  examples: ['virnucpro-bench fixtures inspect fixtures/small/part-001.fa'],
} as const satisfies CommandSpec

export const fixturesSpec = {
  name: 'fixtures',
  summary: 'Generate, sample or inspect FASTA fixtures (seeded, streaming, with manifest.json).',
  options: {},
  subcommands: { generate: fixturesGenerateSpec, sample: fixturesSampleSpec, inspect: fixturesInspectSpec },
  examples: ['virnucpro-bench fixtures generate --preset TINY --out fixtures/tiny'],
  notes: [
    'Exit 0 done; 2 bad arguments; 3 a bad input file, or an output directory it may not write to (files that are no',
    'fixture of its own) or that cannot hold the fixture; 130/143 interrupted (SIGINT/SIGTERM): nothing is left behind.',
  ],
} as const satisfies CommandSpec

export const monitorSpec = {
  name: 'monitor',
  summary:
    'Sample the GPUs until Ctrl-C, or while COMMAND runs (stage-tagged from its log): per-stage summary, JSONL log.',
  operands: '[-- COMMAND ...]',
  options: {
    'interval-ms': {
      type: 'string',
      value: 'N',
      description: `sampling interval in milliseconds, >= 1 (default ${DEFAULT_SAMPLER_OPTIONS.intervalMs})`,
    },
    gpus: { type: 'string', value: 'LIST', description: 'GPU indices to sample, like 0,1 (default: every GPU)' },
    out: { type: 'string', value: 'FILE', description: 'JSONL log (default logs/gpu_metrics_<timestamp>.jsonl)' },
    json: { type: 'boolean', description: 'print the summary as JSON' },
  },
  notes: [
    "COMMAND's stdout and stderr pass through unchanged; with COMMAND the summary goes to stderr (stdout is COMMAND's),",
    'after a line saying how COMMAND ended when not with 0 (--json: its argv, exit code and signal as `command`).',
    '--out must name a new file: a log is never appended to or replaced.',
    "Exit: COMMAND's exit code (128 + the signal's number when a signal killed it; 0 without COMMAND); 2 bad arguments; 3 the GPUs cannot be sampled or --out exists.",
  ],
  examples: ['virnucpro-bench monitor --interval-ms 50 --out gpu.jsonl -- python -m virnucpro predict in.fa --force'],
} as const satisfies CommandSpec

export const reportSpec = {
  name: 'report',
  summary:
    'Rebuild every report (markdown, JSON, HTML charts, CI formats, Perfetto trace) from stored result records, of one run or many hosts and runs merged.',
  operands: 'RESULTS_DIR...',
  positionals: true,
  options: {
    baseline: { type: 'string', value: 'DIR', description: "a baseline run's records to compare against" },
    out: {
      type: 'string',
      value: 'DIR',
      description: 'where the reports go (default $VIRNUCPRO_BENCH_REPORTS_DIR or reports)',
    },
    'fail-on-regression': {
      type: 'boolean',
      description: 'with --baseline: exit 1 when the comparison finds a regression',
    },
    history: {
      type: 'string',
      value: 'FILE',
      description: 'a history database (history add): trend charts over commits with change points marked',
    },
  },
  notes: [
    'Exit 0; 1 a regression (or a baseline group this run failed) with --fail-on-regression; 2 bad arguments; 3 unusable data, refused before anything is written: a RESULTS_DIR or --baseline with no valid record, --fail-on-regression with no run group in common with the baseline, an --out that is a file, cannot be written or holds files of the report names that no report wrote.',
    'Each RESULTS_DIR is a run directory (results/<runId>) or a results root holding run directories; several are merged into one report (records of one run ID from several hosts may share a directory or be spread over several). A merged report compares hosts and GPU models (seq/s, tok/s, J/seq, PERF-01/02/03, bad nodes) and merges sharded runs (fleet time, straggler, N nodes against 1).',
    'An invalid record file (truncated, another schema) is named on stderr and in the reports and left out; the rest is merged.',
    'github-benchmark.json is written only with figures in it (github-action-benchmark refuses an empty list). The JSON reports carry schemaVersion.',
    'A --history FILE that cannot be used (missing, locked, a newer schema) is a note in the reports, not an error.',
  ],
  examples: [
    'virnucpro-bench report results/2026-11-22T05-00-00Z-h3b1 --baseline results/main --fail-on-regression',
    'virnucpro-bench report results/2026-11-22T05-00-00Z-h3b1 --history results/history.sqlite',
    'virnucpro-bench report /shared/results --out reports/fleet',
    'virnucpro-bench report /shared/results/2026-11-22T05-00-00Z-a1b2 /scratch/node07/results --out reports/fleet',
  ],
} as const satisfies CommandSpec

export const programSpec = {
  name: '',
  summary:
    'Benchmarks for the VirNucPro multi-GPU pipeline: fixtures, GPU monitoring, reports, history, machine checks.',
  options: {
    version: { type: 'boolean', short: 'V', description: 'print the version and exit' },
  },
  subcommands: {
    capacity: capacitySpec,
    doctor: doctorSpec,
    fixtures: fixturesSpec,
    history: historySpec,
    monitor: monitorSpec,
    report: reportSpec,
    slurm: slurmSpec,
  },
  examples: ['virnucpro-bench doctor', 'virnucpro-bench help monitor'],
} as const satisfies CommandSpec

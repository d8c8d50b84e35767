// Settings study records for the report and `capacity` tests: the stats a study of VirNucPro's DNABERT-S and CUDA
// options on 2 GPUs would write (src/study/stats.ts), with a best setting that flips a verdict, a setting dropped for
// outputs that differ, one with nothing to compare, one dropped as slower; each record validated by the real schema.
import type { Figure } from '../../../src/capacity/answer.ts'
import type { ResultRecord } from '../../../src/results/schema/index.ts'
import { parseResultRecord } from '../../../src/results/store.ts'
import type { StudyCapacity, StudyConsensus, StudyRow, StudyStats } from '../../../src/study/stats.ts'
import { sampleResultRecord } from '../../support/result-records.ts'

export const BEST = 'dnabert-batch-size=2048'
export const OUTPUTS_DIFFER = 'dnabert-batch-size=4096'
export const NOTHING_TO_COMPARE = 'cuda-streams=2'
export const SLOWER = 'dnabert-batch-size=512'

const fig = (value: number, low: number, high: number): Figure => ({ value, low, high })
const P01_1 = { id: 'capacity/1/perf01/6000000', question: 'Does 6 M finish within 10 h on 1 GPU?' }
const P01_2 = { id: 'capacity/2/perf01/6000000', question: 'Does 6 M finish within 10 h on 2 GPUs?' }
const SPEEDUP = { id: 'capacity/2/speedup/6000000', question: 'Do 2 GPUs pay against 1 at 6 M (>= 1.9x)?' }

function capacity(recordId: string, h1: Figure, h2: Figure, s: Figure, p2: 'pass' | 'fail'): StudyCapacity {
  return {
    recordId,
    statusText: 'FINAL',
    perGpuCount: [
      { gpuCount: 1, productionH: h1, production: 'fail' },
      { gpuCount: 2, productionH: h2, production: p2 },
    ],
    speedups: [{ gpuCount: 2, speedup: s, threshold: 1.9, state: 'undecided' }],
    decisions: [
      { ...P01_1, state: 'fail' },
      { ...P01_2, state: p2 },
      { ...SPEEDUP, state: 'undecided' },
    ],
  }
}

const screened = (round: number, records: number, medianS: number) => ({
  round,
  records,
  runs: 2,
  wallMs: { median: medianS * 1000, low: medianS * 950, high: medianS * 1050 },
})

/** A setting's row, none of its figures set but those given. */
export function row(label: string, extraArgs: string[], rest: Partial<StudyRow> = {}): StudyRow {
  return {
    label,
    extraArgs,
    isDefault: false,
    screening: [],
    outputs: null,
    dropped: null,
    capacity: null,
    flips: [],
    ...rest,
  }
}

/** Consensus figures of `common` IDs, `agreeing` of them, scores moved by at most `maxAbs` (measure/consensus.ts). */
export function consensusOf(common: number, agreeing: number, maxAbs: number): StudyConsensus {
  const over = maxAbs > 1e-3 ? common : 0
  return {
    file: 'prediction_results_highestscore.csv',
    minAgreement: 0.99,
    referenceCount: common,
    candidateCount: common,
    common,
    missing: 0,
    extra: 0,
    duplicates: 0,
    sameIds: true,
    agreeing,
    labelAgreement: agreeing / common,
    scores: { count: 2 * common, maxAbs, meanAbs: maxAbs / 2, over, overShare: over / (2 * common), step: 1e-3 },
  }
}

export const EQUAL_DETAIL =
  'labels agree 100.0% (1,000 of 1,000 IDs in prediction_results_highestscore.csv); scores max |diff| 0.0042, mean 0.0021, 50.0% of 2,000 over 0.001'
export const DIFFER_DETAIL =
  'labels agree 97.2%, 1.8 points under 99% (972 of 1,000 IDs in prediction_results_highestscore.csv); scores max |diff| 0.31, mean 0.16, 50.0% of 2,000 over 0.001'

/** A finished study: the best flips PERF-01 on 2 GPUs (FAIL -> PASS) with the default's outputs. */
export function studyStats(): StudyStats {
  const equal = (records: number) => ({
    equal: true,
    records,
    detail: EQUAL_DETAIL,
    consensus: consensusOf(1000, 1000, 0.0042),
  })
  return {
    grid: { '--dnabert-batch-size': [512, 2048, 4096], '--cuda-streams': [2] },
    screenedOn: '2 GPUs',
    production: 6_000_000,
    rounds: [
      { round: 1, records: 1000, settings: ['default', SLOWER, BEST, OUTPUTS_DIFFER, NOTHING_TO_COMPARE] },
      { round: 2, records: 4000, settings: ['default', SLOWER, BEST] },
    ],
    best: BEST,
    rows: [
      row('default', [], {
        isDefault: true,
        screening: [screened(1, 1000, 60), screened(2, 4000, 200)],
        capacity: capacity(
          'capacity-default',
          fig(21.6, 18.7, 25.8),
          fig(12.2, 10.7, 14),
          fig(1.77, 1.52, 2.05),
          'fail',
        ),
      }),
      row(SLOWER, ['--dnabert-batch-size', '512'], {
        screening: [screened(1, 1000, 58), screened(2, 4000, 230)],
        outputs: equal(4000),
        dropped: { round: 2, records: 4000, why: 'slower', detail: '230.0 s against the kept 120.0 s' },
      }),
      row(BEST, ['--dnabert-batch-size', '2048'], {
        screening: [screened(1, 1000, 40), screened(2, 4000, 120)],
        outputs: equal(4000),
        capacity: capacity('capacity-best', fig(14, 12.1, 16.2), fig(7.4, 6.5, 8.3), fig(1.89, 1.7, 2.1), 'pass'),
        flips: [{ ...P01_2, from: 'fail', to: 'pass' }],
      }),
      row(OUTPUTS_DIFFER, ['--dnabert-batch-size', '4096'], {
        screening: [screened(1, 1000, 35)],
        outputs: { equal: false, records: 1000, detail: DIFFER_DETAIL, consensus: consensusOf(1000, 972, 0.31) },
        dropped: { round: 1, records: 1000, why: 'outputs-differ', detail: DIFFER_DETAIL },
      }),
      row(NOTHING_TO_COMPARE, ['--cuda-streams', '2'], {
        screening: [{ round: 1, records: 1000, runs: 2, wallMs: null }],
        outputs: {
          equal: null,
          records: 1000,
          detail: 'no completed run with outputs: cuda-streams=2',
          consensus: null,
        },
        dropped: { round: 1, records: 1000, why: 'no-outputs', detail: 'no predictions file to compare' },
      }),
    ],
    sameAsDefault: 0,
    stageOptions: [],
    stageOptionsProblem: 'not read',
  }
}

/** A study record as the store reads it: validated by the result schema (a bad one throws, naming the field). */
export function studyRecord(overrides: Partial<ResultRecord> = {}): ResultRecord {
  const record = sampleResultRecord({
    id: 'study-2-GPUs-dnabert-batch-size-cuda-streams',
    kind: 'study',
    name: 'settings study of --dnabert-batch-size --cuda-streams on 2 GPUs',
    createdAt: '2026-12-01T10:00:00.000Z',
    // No runs: the `capacity` command refits every record's runs, and these tests are about the study's table.
    runs: [],
    stats: studyStats() as unknown as Record<string, unknown>,
    verdicts: [],
    ...overrides,
  })
  const parsed = parseResultRecord(JSON.stringify(record), `${record.id}.json`)
  if ('invalid' in parsed) throw new Error(parsed.invalid.reason)
  return parsed.record
}

/** The record with `edit` applied to a copy of its stats (a damaged or older study). */
export function withStats(record: ResultRecord, edit: (stats: StudyStats) => unknown): ResultRecord {
  const stats = structuredClone(record.stats) as unknown as StudyStats
  return { ...record, stats: (edit(stats) ?? stats) as Record<string, unknown> }
}

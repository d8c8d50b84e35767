// Records for the bottleneck report's options: a stage record whose DNABERT-S and ESM-2 stages each take over 30% of
// the wall time (the time-share rule flags both), and settings study records built setting by setting, each checked
// by the real result schema. The figures are the tests' own: each test reads its expectation back from them.
import type { Figure } from '../../../src/capacity/answer.ts'
import type { ResultRecord } from '../../../src/results/schema/index.ts'
import { parseResultRecord } from '../../../src/results/store.ts'
import type { StudyCapacity, StudyRow, StudyScreening, StudyStats } from '../../../src/study/stats.ts'
import { sampleResultRecord, sampleRunRecord } from '../../support/result-records.ts'
import { stageSpan } from '../../support/stage-span.ts'
import { row } from './study.ts'

export const DNABERT = 'DNABERT-S Feature Extraction'
export const ESM = 'ESM-2 Feature Extraction'

/** Two runs, DNABERT-S 4 s and ESM-2 4 s of 10 s each: both flagged by time-share, no monitor data. */
export function flaggedStageRecord(): ResultRecord {
  const run = sampleRunRecord({
    wallMs: 10_000,
    stages: [stageSpan(5, DNABERT, 500, 4_000), stageSpan(6, ESM, 4_500, 4_000)],
  })
  const measured = (n: number) => ({
    label: `2 GPUs #${n}`,
    config: { setup: '2 GPUs', gpus: [0, 1] },
    warmup: false,
    run,
    gpu: null,
  })
  return sampleResultRecord({ id: 'stage-2-GPUs', kind: 'stage', runs: [measured(1), measured(2)], verdicts: [] })
}

export const fig = (value: number, low: number | null, high: number | null): Figure => ({ value, low, high })

/** A screening figure: the median (s) with an interval of +-`halfS`, or none. */
export function screening(
  round: number,
  records: number,
  medianS: number,
  halfS: number | null = medianS * 0.05,
): StudyScreening {
  const ms = (s: number) => s * 1000
  return {
    round,
    records,
    runs: 3,
    wallMs: {
      median: ms(medianS),
      low: halfS === null ? null : ms(medianS - halfS),
      high: halfS === null ? null : ms(medianS + halfS),
    },
  }
}

/** A capacity answer with 6 M hours per GPU count (1 GPU, then 2). */
export function capacity(recordId: string, hours: Figure[]): StudyCapacity {
  return {
    recordId,
    statusText: 'FINAL',
    perGpuCount: hours.map((h, i) => ({ gpuCount: i + 1, productionH: h, production: h.value > 10 ? 'fail' : 'pass' })),
    speedups: [],
    decisions: [],
  }
}

export { row }

export const DEFAULT_HOURS = [fig(21.6, 18.7, 25.8), fig(12.2, 10.7, 14)]

/** The default's row: screened at 1,000 (60 s) and 4,000 records (200 s), and its 6 M answer. */
export const defaultRow = (): StudyRow =>
  row('default', [], {
    isDefault: true,
    screening: [screening(1, 1000, 60), screening(2, 4000, 200)],
    capacity: capacity('capacity-default', DEFAULT_HOURS),
  })

/** The help's options per stage as a study records them (pipeline/stage-options.ts). */
export const STAGE_OPTIONS: StudyStats['stageOptions'] = [
  {
    stage: DNABERT,
    options: [{ flag: '--dnabert-batch-size', help: 'Token batch size for DNABERT-S processing (default: 2048)' }],
  },
  {
    stage: ESM,
    options: [
      { flag: '--esm-batch-size', help: 'Token batch size for ESM-2 processing' },
      { flag: '--v1-fallback', help: 'v1.0 ESM-2 workers' },
    ],
  },
  { stage: 'whole pipeline', options: [{ flag: '-w, --num-workers', help: 'Number of data loading workers' }] },
]

export function studyStats(
  rows: StudyRow[],
  grid: StudyStats['grid'],
  best: string | null,
  rest: Partial<StudyStats> = {},
): StudyStats {
  return {
    grid,
    screenedOn: '2 GPUs',
    production: 6_000_000,
    rounds: [{ round: 1, records: 1000, settings: rows.map((r) => r.label) }],
    best,
    rows: [defaultRow(), ...rows],
    sameAsDefault: 0,
    stageOptions: STAGE_OPTIONS,
    stageOptionsProblem: null,
    ...rest,
  }
}

/** A study record as the store reads it (a bad one throws, naming the field). */
export function studyRecord(
  id: string,
  stats: StudyStats | Record<string, unknown>,
  overrides: Partial<ResultRecord> = {},
): ResultRecord {
  const record = sampleResultRecord({
    id,
    kind: 'study',
    name: `settings study ${id}`,
    createdAt: '2026-12-01T10:00:00.000Z',
    runs: [],
    stats: stats as unknown as Record<string, unknown>,
    verdicts: [],
    ...overrides,
  })
  const parsed = parseResultRecord(JSON.stringify(record), `${record.id}.json`)
  if ('invalid' in parsed) throw new Error(parsed.invalid.reason)
  return parsed.record
}

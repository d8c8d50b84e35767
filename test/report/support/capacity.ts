// The capacity records the report tests read: a REAL one from an H200 (1 GPU at 1,000 and 10,000 records, full model
// scale), and one from REAL CPU runs of the reference pipeline standing in for 1 and 2 GPUs (1 and 2 worker processes,
// gpuCount 1 and 2; its GPU readings are scripted through the fake NVML: test/fixtures/capacity/make-cpu-capacity.ts).
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { buildReport, type Report } from '../../../src/report/analyses/build.ts'
import type { ReportInput } from '../../../src/report/input.ts'
import type { ResultRecord } from '../../../src/results/schema/index.ts'
import { parseResultRecord } from '../../../src/results/store.ts'

const DIR = fileURLToPath(new URL('../../fixtures/capacity/', import.meta.url))
export const H200_1GPU = 'h200-1gpu-1000-10000.json'
export const CPU_1_2_WORKERS = 'cpu-1-2-workers-8-40.json'

/** A fixture record, read and validated as the report loader reads records. */
export async function capacityRecord(file: string): Promise<ResultRecord> {
  const path = `${DIR}${file}`
  const parsed = parseResultRecord(await readFile(path, 'utf8'), path)
  if ('invalid' in parsed) throw new Error(`${file}: ${parsed.invalid.reason}`)
  return parsed.record
}

/** Report input for these records alone (no monitor series, no baseline). */
export function inputOf(records: ResultRecord[]): ReportInput {
  return {
    records,
    invalid: [],
    series: new Map(),
    seriesNotes: [],
    runId: 'capacity-test',
    resultsDir: null,
    generatedAt: '2026-03-04T08:00:00Z',
    outcome: { state: 'passed' },
    baseline: null,
    benchmarks: [],
  }
}

export const reportOf = (records: ResultRecord[]): Report => buildReport(inputOf(records))

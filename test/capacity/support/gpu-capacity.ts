/**
 * The capacity records of the GPU runs of issue 24, gzipped under test/fixtures/capacity/, read back as records or laid
 * out as run directories under a temporary folder (as a downloaded CI artifact would be: the records' absolute log
 * paths no longer exist there):
 * - h100x2: 2 x H100, 2026-11-25 (docs/results/2026-11-25-capacity/README.md says which call made which);
 * - h200x2: 2 x H200, 2026-11-26 (docs/results/2026-11-26-capacity-h200x2/README.md).
 */

import { readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { ResultRecord } from '../../../src/results/schema/index.ts'
import { parseResultRecord } from '../../../src/results/store.ts'

const FIXTURES = join(import.meta.dirname, '../../fixtures/capacity')

/** Call A (1 GPU fit at 1,000/4,000 + 2 direct runs at 20,000), B (the same on 2 GPUs; and the prework fit), C (1,000/10,000), D (1,000/4,000, both GPU counts in one measurement). */
export const H100_RECORDS = {
  a1: 'h100x2/c24a-capacity-1-GPU-1-GPU-direct-check.json.gz',
  b2: 'h100x2/c24b-capacity-2-GPUs-2-GPU-direct-check.json.gz',
  prework: 'h100x2/c24b-capacity-1-GPU-prework.json.gz',
  c: 'h100x2/c24c-capacity-1-GPU-2-GPUs.json.gz',
  d: 'h100x2/c24d-capacity-1-GPU-2-GPUs.json.gz',
} as const

/**
 * One host: call G (the capacity bench at its defaults, 1,000/4,000 and the 15 GPU-minute budget, both GPU counts in one
 * measurement), H (1 GPU fit at 1,000/4,000 + 3 direct runs at 20,000), I (the same on 2 GPUs).
 */
export const H200_RECORDS = {
  g: 'h200x2/c24g-capacity-1-GPU-2-GPUs.json.gz',
  h1: 'h200x2/c24h-capacity-1-GPU-1-GPU-direct-check.json.gz',
  i2: 'h200x2/c24i-capacity-2-GPUs-2-GPU-direct-check.json.gz',
} as const

function readRecord(file: string): ResultRecord {
  const text = gunzipSync(readFileSync(join(FIXTURES, file))).toString('utf8')
  const parsed = parseResultRecord(text, file)
  if (!('record' in parsed)) throw new Error(`${file}: ${parsed.invalid.reason}`)
  return parsed.record
}

async function writeRunDirs(root: string, records: readonly ResultRecord[]): Promise<string[]> {
  const dirs = new Set<string>()
  for (const record of records) {
    const dir = join(root, record.provenance.runId)
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, `${record.id}.json`), JSON.stringify(record))
    dirs.add(dir)
  }
  return [...dirs]
}

/** One stored 2 x H100 record, parsed and validated. */
export const h100Record = (name: keyof typeof H100_RECORDS): ResultRecord => readRecord(H100_RECORDS[name])
/** One stored 2 x H200 record, parsed and validated. */
export const h200Record = (name: keyof typeof H200_RECORDS): ResultRecord => readRecord(H200_RECORDS[name])

/** Writes the 2 x H100 records as `<root>/<runId>/<id>.json` run directories; returns each run directory. */
export const h100RunDirs = (root: string, names: readonly (keyof typeof H100_RECORDS)[]): Promise<string[]> =>
  writeRunDirs(root, names.map(h100Record))
/** The same for the 2 x H200 records. */
export const h200RunDirs = (root: string, names: readonly (keyof typeof H200_RECORDS)[]): Promise<string[]> =>
  writeRunDirs(root, names.map(h200Record))

/** The target.log of call A's `1 GPU, 4,000 seqs run 2`, as its pipeline wrote it. */
export function h100Log(): string {
  return gunzipSync(readFileSync(join(FIXTURES, 'h100x2/c24a-1-GPU-4-000-seqs-run-2.target.log.gz'))).toString('utf8')
}

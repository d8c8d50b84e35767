/**
 * The capacity records of the 2 x H100 runs of issue 24 (test/fixtures/capacity/h100x2, gzipped), read back as records
 * or laid out as run directories under a temporary folder (as a downloaded CI artifact would be: the records' absolute
 * log paths no longer exist there). See docs/results/2026-11-25-capacity/README.md for the calls that made them.
 */

import { readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { ResultRecord } from '../../../src/results/schema/index.ts'
import { parseResultRecord } from '../../../src/results/store.ts'

const DIR = join(import.meta.dirname, '../../fixtures/capacity/h100x2')

/** Call A (1 GPU fit at 1,000/4,000 + 2 direct runs at 20,000), B (the same on 2 GPUs; and the prework fit), C (1,000/10,000), D (1,000/4,000, both GPU counts in one measurement). */
export const H100_RECORDS = {
  a1: 'c24a-capacity-1-GPU-1-GPU-direct-check.json.gz',
  b2: 'c24b-capacity-2-GPUs-2-GPU-direct-check.json.gz',
  prework: 'c24b-capacity-1-GPU-prework.json.gz',
  c: 'c24c-capacity-1-GPU-2-GPUs.json.gz',
  d: 'c24d-capacity-1-GPU-2-GPUs.json.gz',
} as const

/** One stored record, parsed and validated. */
export function h100Record(name: keyof typeof H100_RECORDS): ResultRecord {
  const text = gunzipSync(readFileSync(join(DIR, H100_RECORDS[name]))).toString('utf8')
  const parsed = parseResultRecord(text, H100_RECORDS[name])
  if (!('record' in parsed)) throw new Error(`${H100_RECORDS[name]}: ${parsed.invalid.reason}`)
  return parsed.record
}

/** Writes the records as `<root>/<runId>/<id>.json` run directories; returns each run directory. */
export async function h100RunDirs(root: string, names: readonly (keyof typeof H100_RECORDS)[]): Promise<string[]> {
  const dirs = new Set<string>()
  for (const name of names) {
    const record = h100Record(name)
    const dir = join(root, record.provenance.runId)
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, `${record.id}.json`), JSON.stringify(record))
    dirs.add(dir)
  }
  return [...dirs]
}

/** The target.log of call A's `1 GPU, 4,000 seqs run 2`, as its pipeline wrote it. */
export function h100Log(): string {
  return gunzipSync(readFileSync(join(DIR, 'c24a-1-GPU-4-000-seqs-run-2.target.log.gz'))).toString('utf8')
}

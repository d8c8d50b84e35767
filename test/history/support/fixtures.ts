/** Real result records (test/fixtures) as the history tests read them, and run directories made of them. */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ResultRecord } from '../../../src/results/schema/index.ts'
import { parseResultRecord } from '../../../src/results/store.ts'

const FIXTURES = join(import.meta.dirname, '../../fixtures')
/** Real CPU runs of the reference pipeline (scaling, 1 and 2 GPUs, fake NVML; and a skipped memory record). */
export const SCALING_RUN_DIR = join(FIXTURES, 'results/2026-03-02T09-30-00Z-de30')
export const CAPACITY_CPU = join(FIXTURES, 'capacity/cpu-1-2-workers-8-40.json')
export const CAPACITY_H200 = join(FIXTURES, 'capacity/h200-1gpu-1000-10000.json')

export function readRecord(file: string): ResultRecord {
  const parsed = parseResultRecord(readFileSync(file, 'utf8'), file)
  if ('invalid' in parsed) throw new Error(`fixture ${file}: ${parsed.invalid.reason}`)
  return parsed.record
}

/** A run directory under `root` holding copies of `files` (a capacity fixture is one record of its run). */
export function runDirWith(root: string, name: string, files: readonly string[]): string {
  const dir = join(root, name)
  mkdirSync(dir, { recursive: true })
  for (const file of files) copyFileSync(file, join(dir, file.split('/').at(-1)!))
  return dir
}

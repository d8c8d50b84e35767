// Issue 32: `doctor --settings` accepted a 24.6 MB .fa.gz holding one 2 GB record at 2.34 GB of memory, validation
// memory growing with the largest record. Now a record is held only up to INPUT_HOLD_BASES, a longer one is measured
// streaming, and one past MAX_RECORD_BASES is refused with its length. Measured on the real CLI as a process: its
// peak RSS (the kernel's ru_maxrss, written by a preload) beside the same command on a 4-base input.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { beforeAll, describe, expect, test } from 'vitest'
import { MAX_RECORD_BASES } from '../../src/input/fasta-parser.ts'
import { INPUT_HOLD_BASES } from '../../src/input/input-check.ts'
import { writeOneRecordGz } from '../support/one-record-gz.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'
import { CLI } from './support/cli-sandbox.ts'

const root = tempDirUntilFileEnd('input-memory-')
const PRELOAD = join(import.meta.dirname, '../support/max-rss-preload.ts')
const MiB = 1024 * 1024

/** `doctor --settings` on `input`, and its peak RSS in bytes. */
async function doctorOn(input: string) {
  const rssFile = join(root, `rss-${Math.random().toString(36).slice(2)}`)
  const { SLURM_CONF: _, ...env } = process.env
  const ran = await execa(process.execPath, ['--import', PRELOAD, CLI, 'doctor', '--settings'], {
    reject: false,
    timeout: 300_000,
    extendEnv: false,
    env: { ...env, VIRNUCPRO_BENCH_INPUT: input, MAX_RSS_FILE: rssFile },
  })
  return { ...ran, peakRssBytes: Number(readFileSync(rssFile, 'utf8')) * 1024 }
}

/**
 * What validation may add to the command's own memory: the 16 MiB it holds of a record, the reader's 1 MiB buffers,
 * and garbage the collector has not yet returned (76-117 MB measured here; before, a 200 M-base record alone took
 * 256 MiB and the 1 GiB one 2.1 GB).
 */
const VALIDATION_MAX_BYTES = 160 * MiB

describe('input validation memory does not grow with a record', () => {
  let baselineBytes = 0
  beforeAll(async () => {
    const tiny = join(root, 'tiny.fa.gz')
    writeOneRecordGz(tiny, 'tiny', 4)
    const ran = await doctorOn(tiny)
    expect(ran.exitCode, ran.stderr).toBe(0)
    baselineBytes = ran.peakRssBytes
  })

  test('a record just over the limit is refused with its length, in bounded memory', async () => {
    const file = join(root, 'over-limit.fa.gz')
    writeOneRecordGz(file, 'whole-genome', MAX_RECORD_BASES + 1)
    const ran = await doctorOn(file)
    expect(ran.exitCode).toBe(1)
    expect(ran.stderr.trim().split('\n')).toEqual([
      `virnucpro-bench: VIRNUCPRO_BENCH_INPUT: ${file}:1: record 'whole-genome' has 1,073,741,825 bases, more than the 1,073,741,824 one record may have (longer than any chromosome of the reference assemblies): split it into records of at most that length; correct the file there, or point VIRNUCPRO_BENCH_INPUT at another input`,
    ])
    expect(ran.peakRssBytes - baselineBytes).toBeLessThan(VALIDATION_MAX_BYTES)
  })

  test('a 200 M-base record (11 times what is held) is valid, measured streaming, in the same bounded memory', async () => {
    expect(200_000_000).toBeGreaterThan(11 * INPUT_HOLD_BASES)
    const file = join(root, 'chromosome.fa.gz')
    writeOneRecordGz(file, 'chromosome', 200_000_000)
    const ran = await doctorOn(file)
    expect(ran.exitCode, ran.stderr).toBe(0)
    expect(ran.stdout).toContain(`${file}: 1 records in 1 file(s), valid`)
    expect(ran.peakRssBytes - baselineBytes).toBeLessThan(VALIDATION_MAX_BYTES)
  })
})

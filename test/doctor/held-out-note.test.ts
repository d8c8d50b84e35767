// Issue 58: where the sample and the sizes given leave no size above them to hold out, doctor (and the gpu project's
// set-up, through the same check) says so before any run: the answer could only read UNCHECKED.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { checkSettingsHere } from '../../src/doctor/settings-check.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

/** A FASTA of `records` records of 300 bases (a fixed pattern: the check reads records, not content). */
function sample(records: number): string {
  const file = join(tempDirUntilFileEnd('held-out-note-'), 'sample.fa')
  const seq = 'ACGTTGCAAC'.repeat(30)
  writeFileSync(file, Array.from({ length: records }, (_, i) => `>r${i}\n${seq}\n`).join(''))
  return file
}

describe('doctor: a held-out size the sizes leave', () => {
  test('sizes 16 / 32 on 40 records: a note, no problem; on 64 records: none', async () => {
    const tight = await checkSettingsHere({ VIRNUCPRO_BENCH_INPUT: sample(40), VIRNUCPRO_BENCH_SIZES: '16,32' })
    expect(tight.problems).toEqual([])
    expect(tight.notes).toContainEqual(
      expect.stringMatching(
        /^capacity held-out check: none possible: the sample \(40 records\) is not 1\.5x the largest size \(32\), so the answer cannot read FINAL; a sample of 48 records, or sizes up to 26, would leave one$/,
      ),
    )
    const room = await checkSettingsHere({ VIRNUCPRO_BENCH_INPUT: sample(64), VIRNUCPRO_BENCH_SIZES: '16,32' })
    expect(room.notes.filter((n) => n.includes('held-out'))).toEqual([])
  })

  test('sizes over the sample: one problem naming both', async () => {
    const over = await checkSettingsHere({ VIRNUCPRO_BENCH_INPUT: sample(20), VIRNUCPRO_BENCH_SIZES: '16,32' })
    expect(over.problems).toEqual([expect.stringMatching(/32 records is more than the sample's 20/)])
  })
})

import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { checkSettings, unknownVariables } from '../../src/config/check.ts'
import { checkSuiteSettings } from '../../src/engine/settings.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const dir = tempDirUntilFileEnd('config-check-')

describe('unknown VIRNUCPRO_BENCH_* names', () => {
  test('a typo is named with the closest known name', () => {
    expect(unknownVariables({ VIRNUCPRO_BENCH_RUN: '5', PATH: '/bin' })).toEqual([
      {
        variable: 'VIRNUCPRO_BENCH_RUN',
        message:
          'VIRNUCPRO_BENCH_RUN: not a setting virnucpro-bench reads (did you mean VIRNUCPRO_BENCH_RUNS?); rename it to VIRNUCPRO_BENCH_RUNS',
      },
    ])
  })

  test('a name near none says to unset it', () => {
    expect(unknownVariables({ VIRNUCPRO_BENCH_FROBNICATE: '1' })[0]!.message).toBe(
      'VIRNUCPRO_BENCH_FROBNICATE: not a setting virnucpro-bench reads; unset it (docs/settings.md lists the settings)',
    )
  })
})

describe('checkSettings', () => {
  test('all problems at once, one line each, in order: names, values, the thresholds file, the input', async () => {
    const thresholds = join(dir, 't.json')
    await writeFile(thresholds, '{"perf02": {"minUtilPctt": 50}}')
    const input = join(dir, 'in.fa')
    await writeFile(input, Buffer.from('>a\nACGT\n', 'utf16le'))
    const problems = await checkSettings({
      VIRNUCPRO_BENCH_RUN: '5',
      VIRNUCPRO_BENCH_RUNS: '0x10',
      VIRNUCPRO_BENCH_MATRIX: 'nope',
      VIRNUCPRO_BENCH_THRESHOLDS: thresholds,
      VIRNUCPRO_BENCH_INPUT: input,
    })
    expect(problems.map((p) => p.variable)).toEqual([
      'VIRNUCPRO_BENCH_RUN',
      'VIRNUCPRO_BENCH_RUNS',
      'VIRNUCPRO_BENCH_MATRIX',
      'VIRNUCPRO_BENCH_THRESHOLDS',
      'VIRNUCPRO_BENCH_INPUT',
    ])
    for (const { message } of problems) expect(message).toMatch(/^VIRNUCPRO_BENCH_\w+[^\n]*?: [^\n]+; [^\n]+$/)
    expect(problems[4]!.message).toBe(
      `VIRNUCPRO_BENCH_INPUT: ${input}: the text is UTF-16LE, not ASCII or UTF-8; convert it, e.g. iconv -f UTF-16 -t UTF-8 '${input}' > converted-copy`,
    )
  })

  test('nothing set: no problem', async () => {
    expect(await checkSettings({})).toEqual([])
  })

  test('a FASTA error without a fix of its own gets one', async () => {
    const input = join(dir, 'bad.fa')
    await writeFile(input, '>a\nAC1GT\n')
    const [problem] = await checkSettings({ VIRNUCPRO_BENCH_INPUT: input })
    expect(problem!.message).toBe(
      `VIRNUCPRO_BENCH_INPUT: ${input}:2:3: invalid character '1' in the sequence of record 'a' (allowed: IUPAC nucleotide codes); correct the file there, or point VIRNUCPRO_BENCH_INPUT at another input`,
    )
  })
})

// Issue 47: SIZES=20,40 on a 30-record sample measured 20 and 30 without a word; 40,80 stopped on a stack trace.
test('sizes above the sample are refused in one line naming them, the sample and sizes that fit', async () => {
  const input = join(dir, 'thirty.fa')
  await writeFile(input, Array.from({ length: 30 }, (_, i) => `>r${i}\nACGTACGTAC\n`).join(''))
  const [problem] = await checkSettings({ VIRNUCPRO_BENCH_INPUT: input, VIRNUCPRO_BENCH_SIZES: '20,40' })
  expect(problem).toEqual({
    variable: 'VIRNUCPRO_BENCH_SIZES',
    message: `VIRNUCPRO_BENCH_SIZES 20,40: 40 above the 30 records of ${input}, so measured as the whole sample; give sizes up to 30 (e.g. 20,30), or a larger sample`,
  })
  const [both] = await checkSettings({ VIRNUCPRO_BENCH_INPUT: input, VIRNUCPRO_BENCH_SIZES: '40,80' })
  expect(both!.message).toMatch(/^VIRNUCPRO_BENCH_SIZES 40,80: 40, 80 above the 30 records .*; give sizes up to 30, or/)
  expect(await checkSettings({ VIRNUCPRO_BENCH_INPUT: input, VIRNUCPRO_BENCH_SIZES: '10,30' })).toEqual([])
})

// Issue 47: CAPACITY_GPUS=3 answered for the counts it knows and never said 3 was dropped; CAPACITY_DIRECT=2 beside
// GPUS=1 ran nothing directly and said nothing.
test('capacity GPU counts it does not compare, and direct runs of counts not measured, are refused in one line', async () => {
  const [three] = await checkSettings({ VIRNUCPRO_BENCH_CAPACITY_GPUS: '1,3' })
  expect(three!.message).toBe(
    "VIRNUCPRO_BENCH_CAPACITY_GPUS='1,3': 3 is not a GPU count the capacity answer compares (1, 2, 4, 8); use some of 1, 2, 4, 8, e.g. VIRNUCPRO_BENCH_CAPACITY_GPUS=1,2",
  )
  const [direct] = await checkSettings({ VIRNUCPRO_BENCH_CAPACITY_GPUS: '1', VIRNUCPRO_BENCH_CAPACITY_DIRECT: '1,2' })
  expect(direct).toEqual({
    variable: 'VIRNUCPRO_BENCH_CAPACITY_DIRECT',
    message: expect.stringMatching(
      /^VIRNUCPRO_BENCH_CAPACITY_DIRECT=.*1,2.* with VIRNUCPRO_BENCH_CAPACITY_GPUS=.*1.*: 2 GPU\(s\) not measured, so no projection there for a direct run to check; add 2 to VIRNUCPRO_BENCH_CAPACITY_GPUS, or leave it out of VIRNUCPRO_BENCH_CAPACITY_DIRECT$/,
    ),
  })
  expect(await checkSettings({ VIRNUCPRO_BENCH_CAPACITY_GPUS: '2', VIRNUCPRO_BENCH_CAPACITY_DIRECT: '1,2' })).toEqual(
    [],
  )
})

describe('checkSuiteSettings (doctor, the gpu global setup)', () => {
  test('checks the variables parsed by suite modules (shard, sweep grid) with their own parsers', async () => {
    const problems = await checkSuiteSettings({ VIRNUCPRO_BENCH_SHARD: '3/2', VIRNUCPRO_BENCH_SWEEP: '{"x": [1]}' })
    expect(problems.map((p) => p.message)).toEqual([
      "VIRNUCPRO_BENCH_SHARD='3/2': must be <index>/<count>, a 0-based index below the count (e.g. 0/8 for the first of 8 shards), got '3/2'; set it to <index>/<count>, e.g. VIRNUCPRO_BENCH_SHARD=0/8",
      `VIRNUCPRO_BENCH_SWEEP='{"x": [1]}': 'x' is not a CLI option (e.g. --esm-batch-size, or --x/--no-x for a switch pair); write it as JSON, e.g. {"--esm-batch-size": [8192, 16384], "--parallel": [true, false]} (docs/settings.md)`,
    ])
  })

  test('reads the input as the suites do: an ID in two parts names both files', async () => {
    const parts = join(dir, 'parts')
    await mkdir(parts)
    await writeFile(join(parts, 'a.fa'), '>x\nACGT\n')
    await writeFile(join(parts, 'b.fa'), '>y\nACGT\n>x\nAC\n')
    const [problem] = await checkSuiteSettings({ VIRNUCPRO_BENCH_INPUT: parts })
    expect(problem!.message).toBe(
      `VIRNUCPRO_BENCH_INPUT: ${join(parts, 'b.fa')}:3:2: duplicate record ID 'x', already in ${join(parts, 'a.fa')}: the parts of one input are read as one FASTA; rename one of the two records`,
    )
  })
})

// Issue 47: a 1-record sample passed doctor, then stopped the suite on a stack trace.
test('a sample too small to measure at sizes is refused in one line, naming it, its records and the fewest that do', async () => {
  const input = join(dir, 'one.fa')
  await writeFile(input, '>r0\nACGTACGTAC\n')
  expect(await checkSettings({ VIRNUCPRO_BENCH_INPUT: input })).toEqual([
    {
      variable: 'VIRNUCPRO_BENCH_INPUT',
      message: `VIRNUCPRO_BENCH_INPUT ${input}: 1 record, fewer than the 8 a measurement at sizes needs (three nested sizes below a larger one held out); give a sample of 8 records or more`,
    },
  ])
  const eight = join(dir, 'eight.fa')
  await writeFile(eight, Array.from({ length: 8 }, (_, i) => `>r${i}\nACGTACGTAC\n`).join(''))
  expect(await checkSettings({ VIRNUCPRO_BENCH_INPUT: eight })).toEqual([])
})

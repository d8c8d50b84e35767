import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { countStopFreeFrames, keptFrameIds } from '../../src/input/six-frame.ts'
import {
  CPU_TINY,
  messages,
  type RefpipeRun,
  readTsv,
  runRefpipe,
  STAGES,
  skipReason,
  writeTinyFixture,
} from './support.ts'

/** Parses a FASTA file into records (test-side, independent of the pipeline's reader). */
async function readRecords(path: string): Promise<{ id: string; sequence: string }[]> {
  const records: { id: string; sequence: string }[] = []
  for (const line of (await readFile(path, 'utf8')).split('\n')) {
    if (line.startsWith('>')) records.push({ id: line.slice(1).split(/\s/)[0]!, sequence: '' })
    else if (records.length > 0) records[records.length - 1]!.sequence += line.trim().toUpperCase()
  }
  return records
}

describe.skipIf(skipReason !== null)('refpipe predict on the TINY fixture (tiny scale, CPU)', () => {
  let dir: string
  let fasta: string
  let run: RefpipeRun
  const outDir = () => join(dir, 'out')

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'refpipe-predict-'))
    fasta = await writeTinyFixture(join(dir, 'fixture'))
    run = await runRefpipe(['predict', fasta, '-o', outDir(), ...CPU_TINY])
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  test('exits 0', () => {
    expect(run.exitCode, run.stdout + run.stderr).toBe(0)
  })

  test('logs the nine stage start and end lines in order', () => {
    const expected = STAGES.flatMap((name, i) => [`=== Stage ${i + 1}: ${name} ===`, `  ${name} completed in`])
    const seen = messages(run.lines).filter((m) => /^=== Stage \d: /.test(m) || / completed in [\d.]+s/.test(m))
    expect(seen.map((m, i) => (i % 2 === 0 ? m : m.slice(0, expected[i]!.length)))).toEqual(expected)
  })

  test('every line of the main log has the VirNucPro prefix', () => {
    const bad = run.lines.filter((l) => l !== '' && !/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d - \S+ - [A-Z]+ - /.test(l))
    expect(bad).toEqual([])
  })

  test('ends with the PIPELINE SUMMARY block', () => {
    const m = messages(run.lines)
    const start = m.indexOf('PIPELINE SUMMARY')
    expect(m[start - 1]).toBe('='.repeat(80))
    expect(m[start + 1]).toBe('='.repeat(80))
    expect(m[start + 2]).toMatch(/^Total wall time: \d\d:\d\d:\d\d \(\d+\.\ds\)$/)
    const stageLines = m.filter((l) => /^ {2}\d\. .+ \.+ {2} +\d+\.\ds \( *\d+\.\d%\)$/.test(l))
    expect(stageLines.map((l) => l.replace(/^ {2}\d\. (.+?) \.+.*$/, '$1'))).toEqual([...STAGES])
    expect(m.some((l) => /^Bottlenecks: .+ \(\d+%\)/.test(l))).toBe(true)
    expect(m).toContain('  Sequences processed: 10')
    expect(m.filter((l) => l !== '').at(-1)).toBe('='.repeat(80))
  })

  test('logs the translation and ESM-2 batch throughput lines', () => {
    const m = messages(run.lines)
    expect(
      m.some((l) => /^Translation complete: processed [\d,]+ sequences in \d+\.\ds \([\d,]+ seq\/s\)$/.test(l)),
    ).toBe(true)
    const batch = /^Batch \d+: \d+\/\d+ \(\d+\.\d%\) \| \d+\.\d% pack eff, [\d,]+ tok\/s, \d+\.\d seq\/s, ETA: \S+$/
    expect(m.some((l) => batch.test(l))).toBe(true)
  })

  test('writes one prediction row per stop-free frame, with the IDs of the six-frame contract', async () => {
    const records = await readRecords(fasta)
    const expectedIds = records.flatMap((r) => keptFrameIds(r, 500))
    const total = records.reduce((sum, r) => sum + countStopFreeFrames(r.sequence, 500), 0)
    const { header, rows } = await readTsv(join(outDir(), 'part-001_merged', 'prediction_results.txt'))
    expect(header).toEqual(['Sequence_ID', 'Prediction', 'score1', 'score2'])
    expect(rows.map((r) => r[0])).toEqual(expectedIds)
    expect(rows).toHaveLength(total)
    for (const [, prediction, s0, s1] of rows) {
      expect(['virus', 'others']).toContain(prediction)
      expect(Number(s0) + Number(s1)).toBeCloseTo(1, 5)
    }
  })

  test('writes the consensus file: one row per chunk with a kept frame', async () => {
    const { rows: predictions } = await readTsv(join(outDir(), 'part-001_merged', 'prediction_results.txt'))
    const chunks = [...new Set(predictions.map((r) => r[0]!.slice(0, -2)))]
    const { header, rows } = await readTsv(join(outDir(), 'part-001_merged', 'prediction_results_highestscore.csv'))
    expect(header).toEqual(['Modified_ID', 'Is_Virus', 'max_score_0', 'max_score_1'])
    expect(rows.map((r) => r[0])).toEqual(chunks)
    for (const [, isVirus, m0, m1] of rows) expect(isVirus).toBe(Number(m1) >= Number(m0) ? 'True' : 'False')
  })

  test('removes intermediate files without -k', async () => {
    expect((await readdir(outDir())).sort()).toEqual(['.checkpoints', 'part-001_merged'])
  })

  test('gives byte-identical outputs on a second CPU fp32 run', async () => {
    const again = await runRefpipe(['predict', fasta, '-o', join(dir, 'again'), ...CPU_TINY])
    expect(again.exitCode).toBe(0)
    for (const name of ['prediction_results.txt', 'prediction_results_highestscore.csv']) {
      const first = await readFile(join(outDir(), 'part-001_merged', name))
      expect(first.equals(await readFile(join(dir, 'again', 'part-001_merged', name)))).toBe(true)
    }
  })

  test('refuses an existing output directory without -f (exit 1, nothing touched)', async () => {
    const before = await readFile(join(outDir(), 'part-001_merged', 'prediction_results.txt'))
    const refused = await runRefpipe(['predict', fasta, '-o', outDir(), ...CPU_TINY])
    expect(refused.exitCode).toBe(1)
    expect(refused.stdout).toMatch(/output directory .* already exists; pass -f\/--force/)
    expect(refused.stdout).not.toContain('=== Stage 1')
    expect((await readFile(join(outDir(), 'part-001_merged', 'prediction_results.txt'))).equals(before)).toBe(true)
  })

  test('keeps intermediate files with -k and overwrites with -f', async () => {
    const kept = await runRefpipe(['predict', fasta, '-o', outDir(), '-f', '-k', ...CPU_TINY])
    expect(kept.exitCode).toBe(0)
    const entries = await readdir(outDir())
    for (const name of ['part-001_chunked500.fa', 'part-001_nucleotide.fa', 'part-001_protein.faa']) {
      expect(entries).toContain(name)
    }
  })
})

describe.skipIf(skipReason !== null)('refpipe predict on bad input', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'refpipe-bad-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  test('a non-FASTA file exits 1 naming the file and line, and writes no outputs', async () => {
    const bad = join(dir, 'bad.fa')
    await writeFile(bad, '>ok\nACGT\n>broken\nACGT1ACGT\n')
    const result = await runRefpipe(['predict', bad, '-o', join(dir, 'out'), ...CPU_TINY])
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toContain(`input FASTA ${bad} line 4: '1' is not an IUPAC nucleotide letter`)
    expect(existsSync(join(dir, 'out'))).toBe(false)
  })

  test('a missing file exits 1 with a clear message', async () => {
    const result = await runRefpipe(['predict', join(dir, 'absent.fa'), '-o', join(dir, 'out2'), ...CPU_TINY])
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toMatch(/input FASTA .*absent\.fa: no such file/)
  })

  test('an unknown option value exits 2 (usage)', async () => {
    const result = await runRefpipe(['predict', join(dir, 'x.fa'), '--model-type', '400'])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain('--model-type')
  })
})

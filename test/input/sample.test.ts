import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, describe, expect, test } from 'vitest'
import { readFasta } from '../../src/input/fasta-reader.ts'
import { generateFixture } from '../../src/input/generate.ts'
import { resolveParams } from '../../src/input/presets.ts'
import { RecordWork } from '../../src/input/record-work.ts'
import { sampleFasta } from '../../src/input/sample.ts'

const root = await mkdtemp(join(tmpdir(), 'fixtures-sample-'))
afterAll(() => rm(root, { recursive: true, force: true }))
const source = join(
  await generateFixture(resolveParams('LARGE', { records: 5000, seed: 9 }), join(root, 'src')).then(() =>
    join(root, 'src'),
  ),
  'part-001.fa',
)

describe('sampleFasta', () => {
  test('writes exactly N records from the source, length distribution close (KS in the manifest < 0.05)', async () => {
    const manifest = await sampleFasta({ from: source, records: 500 }, join(root, 'a'))
    expect(manifest.totals.records).toBe(500)
    expect(manifest.lengthKsDistance).toBeLessThan(0.05)
    const sourceIds = new Set<string>()
    await readFasta(source, (r) => sourceIds.add(r.id))
    const ids: string[] = []
    await readFasta(join(root, 'a', 'part-001.fa'), (r) => ids.push(r.id))
    expect(ids).toHaveLength(500)
    expect(ids.every((id) => sourceIds.has(id))).toBe(true)
  })

  test("stratified by work, the subset does the source's GPU work per record; by length, it may not", async () => {
    // The subset a projection runs on: the manifest's work per record is what its runs would do per record.
    const errors = { length: [] as number[], work: [] as number[] }
    for (const by of ['length', 'work'] as const)
      for (const seed of [1, 2, 3, 4, 5]) {
        const manifest = await sampleFasta(
          { from: source, records: 500, seed, stratifyBy: by, strata: 500 },
          join(root, `w-${by}-${seed}`),
        )
        expect(manifest.stratification).toEqual({ by, strata: 500, recordsRequested: 500, selection: 'stratified' })
        expect(manifest.workPerRecord.chunkLength).toBe(500)
        errors[by].push(Math.abs(manifest.workPerRecord.relativeDifference))
      }
    expect(Math.max(...errors.work)).toBeLessThan(0.005)
    // Length leaves the stop-codon content to chance: on this source a few percent at 500 of 5,000.
    expect(Math.max(...errors.length)).toBeGreaterThan(Math.max(...errors.work))
  })

  test("the manifest's work per record is the mean of RecordWork over the records written", async () => {
    const manifest = await sampleFasta(
      { from: source, records: 40, seed: 3, stratifyBy: 'work', chunkLength: 300 },
      join(root, 'wm'),
    )
    const work = new RecordWork()
    let total = 0
    await readFasta(join(root, 'wm', 'part-001.fa'), (r) => {
      total += work.bases(r.bases, 0, r.length, 300)
    })
    expect(manifest.workPerRecord.sample).toBeCloseTo(total / 40, 9)
    expect(manifest.workPerRecord.chunkLength).toBe(300)
  })

  test('a bad stratification or chunk length is refused before anything is read', async () => {
    await expect(
      sampleFasta({ from: source, records: 5, stratifyBy: 'gc' as 'work' }, join(root, 'never-by')),
    ).rejects.toThrow("stratify by must be one of length, work, got 'gc'")
    await expect(sampleFasta({ from: source, records: 5, chunkLength: 0 }, join(root, 'never-cl'))).rejects.toThrow(
      'chunk length must be an integer >= 1, got 0',
    )
    expect(existsSync(join(root, 'never-by'))).toBe(false)
  })

  test('reads gzip sources and is reproducible by seed', async () => {
    const gz = join(root, 'src.fa.gz')
    await writeFile(gz, gzipSync(await readFile(source)))
    await sampleFasta({ from: gz, records: 100, seed: 4 }, join(root, 'g1'))
    await sampleFasta({ from: source, records: 100, seed: 4 }, join(root, 'g2'))
    expect(
      (await readFile(join(root, 'g1', 'part-001.fa'))).equals(await readFile(join(root, 'g2', 'part-001.fa'))),
    ).toBe(true)
  })

  test('nested selection: two sizes of one seed are nested, each near the source work per record', async () => {
    // Nested costs some accuracy against a stratified sample of one size (an unequal share of picks per stratum between
    // two dyadic levels): 0.13% rms at 1,000 of 5,000 over 40 seeds, against 0.03%; the size model fits on work, not records.
    const sizes = [100, 1000]
    const manifests = await Promise.all(
      sizes.map((records) =>
        sampleFasta(
          { from: source, records, seed: 3, stratifyBy: 'work', selection: 'nested' },
          join(root, `n${records}`),
        ),
      ),
    )
    const idsOf = async (dir: string) => {
      const ids: string[] = []
      await readFasta(join(root, dir, 'part-001.fa'), (r) => ids.push(r.id))
      return ids
    }
    const large = new Set(await idsOf('n1000'))
    const small = await idsOf('n100')
    expect(small.every((id) => large.has(id))).toBe(true)
    for (const m of manifests) expect(m.stratification.selection).toBe('nested')
    expect(Math.abs(manifests[0]!.workPerRecord.relativeDifference)).toBeLessThan(0.05)
    expect(Math.abs(manifests[1]!.workPerRecord.relativeDifference)).toBeLessThan(0.01)
  })

  test('several source files read as one input, in order', async () => {
    const text = await readFile(source, 'utf8')
    const records = text.split(/(?=^>)/m)
    const a = join(root, 'part-a.fa')
    const b = join(root, 'part-b.fa')
    await writeFile(a, records.slice(0, 2500).join(''))
    await writeFile(b, records.slice(2500).join(''))
    const manifest = await sampleFasta({ from: [a, b], records: 5000 }, join(root, 'both'))
    expect(manifest.source.records).toBe(5000)
    expect(await readFile(join(root, 'both', 'part-001.fa'), 'utf8')).toBe(text)
  })

  test('a malformed source leaves nothing behind, and the error names file and line', async () => {
    const bad = join(root, 'bad.fa')
    await writeFile(bad, '>a\nACGT\n>b\nAC!T\n')
    const out = join(root, 'never')
    await expect(sampleFasta({ from: bad, records: 1 }, out)).rejects.toThrow(`${bad}:4:3: invalid character '!'`)
    expect(existsSync(out)).toBe(false)
  })

  test('refuses to replace a directory that is not a fixture', async () => {
    const out = join(root, 'occupied')
    await rm(out, { recursive: true, force: true })
    await import('node:fs/promises').then((fs) => fs.mkdir(out)).then(() => writeFile(join(out, 'notes.txt'), 'mine'))
    await expect(sampleFasta({ from: source, records: 1 }, out)).rejects.toThrow(
      `${out}: holds 1 file(s) (notes.txt) and no fixture manifest.json; choose an empty or new directory for --out`,
    )
    expect(await readFile(join(out, 'notes.txt'), 'utf8')).toBe('mine')
  })
})

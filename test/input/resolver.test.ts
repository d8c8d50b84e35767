import { createHash } from 'node:crypto'
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { cachedDataset } from '../../src/input/dataset-cache.ts'
import { readFasta } from '../../src/input/fasta-reader.ts'
import { InputError } from '../../src/input/identity.ts'
import { createInputResolver } from '../../src/input/resolver.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const root = tempDirUntilFileEnd('suites-input-')
const cacheDir = join(root, 'cache')
/** A user's sample: 400 generated coding records (MEDIUM parameters) copied out of the cache. */
const sample = join(root, 'sample.fa')
await copyFile(
  (await cachedDataset({ preset: 'MEDIUM', overrides: { seed: 5, records: 400 } }, join(root, 'gen'))).files[0]!,
  sample,
)

const ids = async (file: string) => {
  const out: string[] = []
  await readFasta(file, (r) => out.push(r.id))
  return out
}

describe('input resolver, user input (VIRNUCPRO_BENCH_INPUT)', () => {
  test('names the input by content: records, sha256 of its bytes, work per record', async () => {
    const resolver = await createInputResolver({ userInput: sample, cacheDir })
    const bytes = await readFile(sample)
    expect(resolver.user).toMatchObject({
      source: 'user',
      path: sample,
      files: [sample],
      records: 400,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      chunkLength: 500,
    })
    expect(resolver.user!.workPerRecord).toBeGreaterThan(0)
  })

  test('a suite size below the input gives a nested work-stratified subset; at or above it, the input itself', async () => {
    const resolver = await createInputResolver({ userInput: sample, cacheDir })
    const [small, large] = await resolver.nested('MEDIUM', [200, 50])
    expect(small!.records).toBe(50)
    expect(large!.records).toBe(200)
    expect(small!.kind).toBe('subset')
    const largeIds = new Set(await ids(large!.file))
    const smallIds = await ids(small!.file)
    expect(smallIds).toHaveLength(50)
    expect(smallIds.every((id) => largeIds.has(id))).toBe(true)
    expect(Math.abs(small!.workRelativeDifference)).toBeLessThan(0.05)
    // Another suite asking for one of those sizes gets the very same subset.
    expect((await resolver.input('MEDIUM', 50)).file).toBe(small!.file)
    const whole = await resolver.input('MEDIUM', 10_000)
    expect(whole).toMatchObject({ file: sample, records: 400, kind: 'full', workRelativeDifference: 0 })
  })

  test('a .fa.gz and a directory of parts are read as one input and handed to the pipeline as one plain FASTA', async () => {
    const text = await readFile(sample, 'utf8')
    const gz = join(root, 'sample.fa.gz')
    await writeFile(gz, gzipSync(text))
    const fromGz = await createInputResolver({ userInput: gz, cacheDir })
    const plain = await fromGz.input('MEDIUM', 0)
    expect(plain.file).not.toBe(gz)
    expect(await ids(plain.file)).toEqual(await ids(sample))

    const parts = join(root, 'parts')
    await mkdir(parts)
    const records = text.split(/(?=^>)/m)
    await writeFile(join(parts, 'b.fasta'), records.slice(150).join(''))
    await writeFile(join(parts, 'a.fa'), records.slice(0, 150).join(''))
    await writeFile(join(parts, 'notes.txt'), 'not a part')
    const fromDir = await createInputResolver({ userInput: parts, cacheDir })
    expect(fromDir.user!.files.map((f) => f.slice(parts.length + 1))).toEqual(['a.fa', 'b.fasta'])
    expect(fromDir.user!.records).toBe(400)
    expect(await ids((await fromDir.input('MEDIUM', 0)).file)).toEqual(await ids(sample))
  })

  test('gzip data in a file named .fa is handed to the pipeline as plain FASTA too (by content, not name)', async () => {
    const disguised = join(root, 'disguised.fa')
    await writeFile(disguised, gzipSync(await readFile(sample)))
    const resolver = await createInputResolver({ userInput: disguised, cacheDir })
    const handed = await resolver.input('MEDIUM', 0)
    expect(handed.file).not.toBe(disguised)
    const head = (await readFile(handed.file)).subarray(0, 2)
    expect([...head]).not.toEqual([0x1f, 0x8b])
    expect(await ids(handed.file)).toEqual(await ids(sample))
  })

  test('an ID two parts of a directory hold is refused before anything runs, naming both files', async () => {
    const parts = join(root, 'dup-parts')
    await mkdir(parts)
    await writeFile(join(parts, 'a.fa'), '>x\nACGT\n')
    await writeFile(join(parts, 'b.fa'), '>x\nACGT\n')
    await expect(createInputResolver({ userInput: parts, cacheDir })).rejects.toThrow(
      `${join(parts, 'b.fa')}:1:2: duplicate record ID 'x', already in ${join(parts, 'a.fa')}`,
    )
  })

  test('a malformed FASTA is refused before anything runs, naming the file and line', async () => {
    const bad = join(root, 'bad.fa')
    await writeFile(bad, '>a\nACGT\n>b\nAC1GT\n')
    await expect(createInputResolver({ userInput: bad, cacheDir })).rejects.toThrow(`${bad}:4`)
  })

  test('a missing path or a directory without FASTA parts says so', async () => {
    await expect(createInputResolver({ userInput: join(root, 'nope.fa'), cacheDir })).rejects.toThrow(
      /nope\.fa: no such file or directory/,
    )
    const empty = join(root, 'empty')
    await mkdir(empty)
    await expect(createInputResolver({ userInput: empty, cacheDir })).rejects.toBeInstanceOf(InputError)
  })

  test('provenance names the source and every file of it a record used', async () => {
    const resolver = await createInputResolver({ userInput: sample, cacheDir })
    const [a, b] = await resolver.nested('MEDIUM', [40, 80])
    const p = resolver.provenanceOf([b!.file, a!.file, b!.file, '/elsewhere.fa'])
    expect(p?.source.sha256).toBe(resolver.user!.sha256)
    expect(p?.used.map((u) => u.records)).toEqual([40, 80])
    expect(resolver.provenanceOf(['/elsewhere.fa'])).toBeNull()
  })
})

describe('input resolver, generated presets (no user input)', () => {
  test('a suite gets the preset fixture; nested sizes are subsets of the preset generated at the largest', async () => {
    const resolver = await createInputResolver({ userInput: '', cacheDir })
    expect(resolver.user).toBeNull()
    const tiny = await resolver.input('TINY', 0)
    expect(tiny).toMatchObject({ records: 10, kind: 'full' })
    expect(tiny.source).toMatchObject({ source: 'generated', preset: 'TINY' })
    const [a, b] = await resolver.nested('SMALL', [30, 90])
    expect(b!.source.records).toBe(90)
    expect(b!.kind).toBe('full')
    const all = new Set(await ids(b!.file))
    expect((await ids(a!.file)).every((id) => all.has(id))).toBe(true)
  })
})

describe('input resolver, a size the capacity design adds (resize)', () => {
  test("a user's sample: nested with the sizes handed out, up to all of it, and no more", async () => {
    const resolver = await createInputResolver({ userInput: sample, cacheDir })
    const [small, large] = await resolver.nested('MEDIUM', [50, 100])
    expect(resolver.sizeLimit(large!)).toBe(400)
    const more = await resolver.resize(large!, 300)
    expect(more).toMatchObject({ records: 300, kind: 'subset' })
    const moreIds = new Set(await ids(more.file))
    for (const f of [small!.file, large!.file]) expect((await ids(f)).every((id) => moreIds.has(id))).toBe(true)
    // A size between two handed out lies between them too.
    const middle = new Set(await ids((await resolver.resize(large!, 70)).file))
    expect(middle.size).toBe(70)
    expect((await ids(small!.file)).every((id) => middle.has(id))).toBe(true)
    expect([...middle].every((id) => moreIds.has(id))).toBe(true)
    expect(await resolver.resize(large!, 400)).toMatchObject({ file: sample, kind: 'full' })
  })

  test('a generated preset grows as the preset at more records, which begins with the source: the subsets stay inside', async () => {
    const resolver = await createInputResolver({ userInput: '', cacheDir })
    const [a, b] = await resolver.nested('SMALL', [30, 90])
    expect(resolver.sizeLimit(b!)).toBe(Number.POSITIVE_INFINITY)
    const grown = await resolver.resize(b!, 360)
    expect(grown).toMatchObject({ records: 360, kind: 'superset', source: b!.source })
    expect((await readFile(grown.file)).subarray(0, (await readFile(b!.file)).length)).toEqual(await readFile(b!.file))
    const all = new Set(await ids(grown.file))
    expect((await ids(a!.file)).every((id) => all.has(id))).toBe(true)
    // Its work per record against the source's, so its sequence-equivalents are in the source's unit.
    expect(Math.abs(grown.workRelativeDifference)).toBeLessThan(0.1)
    expect(resolver.provenanceOf([grown.file, a!.file])?.used.map((u) => [u.records, u.kind])).toEqual([
      [30, 'subset'],
      [360, 'superset'],
    ])
  })

  test('a generated source that the larger preset does not begin with is refused, naming both', async () => {
    const resolver = await createInputResolver({ userInput: '', cacheDir })
    const [, b] = await resolver.nested('SMALL', [30, 90])
    const other = join(root, 'not-the-source.fa')
    await writeFile(other, '>x\nACGT\n')
    const base = { ...b!, source: { ...b!.source, files: [other], path: other } }
    await expect(resolver.resize(base, 360)).rejects.toThrow(
      /generated SMALL at 360 records .* does not begin with the source at 90 .*not-the-source\.fa.*: it would not hold the measured subsets/,
    )
  })
})

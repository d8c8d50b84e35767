// writeShard on real files: a generated fixture split into shards, each read back.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { FastaFormatError } from '../../src/input/fasta-errors.ts'
import { readFasta } from '../../src/input/fasta-reader.ts'
import { generateFixture } from '../../src/input/generate.ts'
import { resolveParams } from '../../src/input/presets.ts'
import { RecordWork } from '../../src/input/record-work.ts'
import { SHARD_FILE, writeShard } from '../../src/input/shard-write.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const root = tempDirUntilFileEnd('fixtures-shard-')
await generateFixture(resolveParams('MEDIUM', { records: 600, seed: 3 }), join(root, 'src'))
const source = join(root, 'src', 'part-001.fa')

/** ID -> work of every record of a file. */
async function workById(file: string): Promise<Map<string, number>> {
  const measure = new RecordWork()
  const out = new Map<string, number>()
  await readFasta(file, (r) => out.set(r.id, measure.bases(r.bases, 0, r.length, 500)))
  return out
}

describe('writeShard', () => {
  test('the shards of an input hold each of its records once, with the work their manifests say', async () => {
    const all = await workById(source)
    const seen = new Map<string, number>()
    const manifests = []
    for (let index = 0; index < 5; index++) {
      const dir = join(root, `s5-${index}`)
      const manifest = await writeShard({ from: [source], index, count: 5, chunkLength: 500 }, dir)
      manifests.push(manifest)
      const records = await workById(join(dir, SHARD_FILE))
      for (const [id, work] of records) {
        seen.set(id, (seen.get(id) ?? 0) + 1)
        expect(all.get(id)).toBe(work)
      }
      expect(manifest.file.records).toBe(records.size)
      expect(manifest.work).toBe([...records.values()].reduce((a, w) => a + w, 0))
      expect(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'))).toEqual(manifest)
    }
    expect(seen.size).toBe(all.size)
    expect([...seen.values()].every((n) => n === 1)).toBe(true)
    const total = [...all.values()].reduce((a, w) => a + w, 0)
    expect(manifests.every((m) => m.source.work === total && m.source.records === 600)).toBe(true)
    // Balanced: 120 records each, work within 2% of a fifth of the input's.
    expect(manifests.map((m) => m.file.records)).toEqual([120, 120, 120, 120, 120])
    for (const m of manifests) expect(Math.abs(m.work - total / 5) / (total / 5)).toBeLessThan(0.02)
    const works = manifests.map((m) => m.work)
    expect(manifests[0]!.balance.work).toEqual({ min: Math.min(...works), max: Math.max(...works) })
  })

  test('deterministic: the same shard written twice (or from a gzip of the input) is byte-identical', async () => {
    const a = await writeShard({ from: [source], index: 2, count: 3, chunkLength: 500 }, join(root, 'd-a'))
    const b = await writeShard({ from: [source], index: 2, count: 3, chunkLength: 500 }, join(root, 'd-b'))
    const gz = join(root, 'input.fa.gz')
    await writeFile(gz, gzipSync(await readFile(source)))
    const c = await writeShard({ from: [gz], index: 2, count: 3, chunkLength: 500 }, join(root, 'd-c'))
    expect(b.file.sha256).toBe(a.file.sha256)
    expect(c.file.sha256).toBe(a.file.sha256)
  })

  test('a bad count, index or input is one clear error, and nothing is written', async () => {
    const out = join(root, 'bad')
    await expect(writeShard({ from: [source], index: 0, count: 601, chunkLength: 500 }, out)).rejects.toThrow(
      "shard count must be an integer in [1, 600] (the input's record count), got 601",
    )
    await expect(writeShard({ from: [source], index: 3, count: 3, chunkLength: 500 }, out)).rejects.toThrow(
      'shard index must be an integer in [0, 2], got 3',
    )
    const broken = join(root, 'broken.fa')
    await writeFile(broken, '>a\nACGT\nnot bases!\n')
    await expect(writeShard({ from: [broken], index: 0, count: 1, chunkLength: 500 }, out)).rejects.toThrow(
      FastaFormatError,
    )
    await expect(readFile(join(out, SHARD_FILE))).rejects.toThrow(/ENOENT/)
  })
})

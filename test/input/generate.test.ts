import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, test } from 'vitest'
import { readFasta } from '../../src/input/fasta-reader.ts'
import { generateFixture } from '../../src/input/generate.ts'
import { type FixtureOverrides, type PresetName, resolveParams } from '../../src/input/presets.ts'
import { countStopFreeFrames } from '../../src/input/six-frame.ts'

const root = await mkdtemp(join(tmpdir(), 'fixtures-generate-'))
afterAll(() => rm(root, { recursive: true, force: true }))
let runs = 0

async function generate(preset: PresetName, overrides: FixtureOverrides) {
  const dir = join(root, `run-${runs++}`)
  const manifest = await generateFixture(resolveParams(preset, overrides), dir)
  const files = manifest.files.map((file) => join(dir, file.name))
  const bytes = Buffer.concat(await Promise.all(files.map((file) => readFile(file))))
  return { dir, manifest, files, bytes }
}

async function records(files: string[]) {
  const out: { id: string; sequence: string }[] = []
  for (const file of files)
    await readFasta(file, (r) =>
      out.push({ id: r.id, sequence: Buffer.from(r.bases.subarray(0, r.length)).toString('latin1') }),
    )
  return out
}

const smallOverrides = fc.record({
  seed: fc.nat({ max: 1_000_000 }),
  records: fc.integer({ min: 1, max: 40 }),
  model: fc.constantFrom<'coding' | 'uniform'>('coding', 'uniform'),
  lineWidth: fc.constantFrom(0, 1, 7, 60, 80),
})

describe('generateFixture', () => {
  test('same seed and parameters give byte-identical files; another seed gives different bytes', async () => {
    await fc.assert(
      fc.asyncProperty(smallOverrides, async (o) => {
        const a = await generate('SMALL', o)
        const b = await generate('SMALL', o)
        expect(a.bytes.equals(b.bytes)).toBe(true)
        const c = await generate('SMALL', { ...o, seed: o.seed + 1 })
        expect(c.bytes.equals(a.bytes)).toBe(false)
      }),
      { numRuns: 8 },
    )
  })

  test('parse(generate(x)) gives the records back: unique IDs seq1..seqN, lengths within bounds, only ACGT', async () => {
    await fc.assert(
      fc.asyncProperty(
        smallOverrides,
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 0, max: 600 }),
        async (o, min, span) => {
          const { manifest, files } = await generate('TINY', { ...o, minLength: min, maxLength: min + span })
          const parsed = await records(files)
          expect(parsed.map((r) => r.id)).toEqual(Array.from({ length: o.records }, (_, i) => `seq${i + 1}`))
          for (const r of parsed) {
            expect(r.sequence.length).toBeGreaterThanOrEqual(min)
            expect(r.sequence.length).toBeLessThanOrEqual(min + span)
            expect(r.sequence).toMatch(/^[ACGT]+$/)
          }
          expect(manifest.totals.bases).toBe(parsed.reduce((sum, r) => sum + r.sequence.length, 0))
        },
      ),
      { numRuns: 12 },
    )
  })

  test('splitting into files does not change the records, and each file has its manifest sha256 and size', async () => {
    const one = await generate('SMALL', { seed: 5, files: 1 })
    const three = await generate('SMALL', { seed: 5, files: 3 })
    expect(await readdir(three.dir)).toEqual(['manifest.json', 'part-001.fa', 'part-002.fa', 'part-003.fa'])
    expect(three.bytes.equals(one.bytes)).toBe(true)
    for (const [i, file] of three.files.entries()) {
      const data = await readFile(file)
      expect(createHash('sha256').update(data).digest('hex')).toBe(three.manifest.files[i]!.sha256)
      expect(data.length).toBe(three.manifest.files[i]!.bytes)
    }
    expect(three.manifest.files.map((f) => f.records)).toEqual([33, 33, 34])
  })

  test.each([0.3, 0.5, 0.65])('GC is within 0.01 of the target %s over ~1 Mb (both models)', async (gc) => {
    for (const model of ['coding', 'uniform'] as const) {
      const { manifest } = await generate('MEDIUM', { seed: 11, records: 1200, gc, model })
      expect(Math.abs(manifest.gc.measured - gc)).toBeLessThan(0.01)
    }
  })

  test('the manifest measures stop-free frames on the records it wrote', async () => {
    const { manifest, files } = await generate('SMALL', { seed: 3 })
    const parsed = await records(files)
    const at500 = manifest.stopFreeFrames.find((s) => s.chunkLength === 500)!
    expect(at500.stopFreeFrames).toBe(parsed.reduce((sum, r) => sum + countStopFreeFrames(r.sequence, 500), 0))
    expect(manifest.stopFreeSampling.recordsMeasured).toBe(100)
  })

  // Output pinned for GENERATOR_VERSION 1: these sha256 were computed from files written by the first generator
  // (commit 30fff2c, before the performance work), so a speed-up that changes one byte fails here, not in a user's cache.
  test.each([
    ['SMALL', { seed: 2, lineWidth: 7, gc: 0.3 }, ['4d04c4b6c4f6816a5922bcdbf60d7a01ea19365afb5beaf49100de3b01b71b3d']],
    ['LARGE', { seed: 5, model: 'uniform' }, ['730f581c3532910bf56f938a80c537e6477eac86e7b0857f132b50405756546f']],
    [
      'MEDIUM',
      { seed: 9, lineWidth: 0, files: 3 },
      [
        '79bad3033f9346d7d00b19946e6c8aa51d75641c57120d0573add9d7b09e3f1c',
        'ca908ba8e806e0efa7a0f2958aff33951551528e172b84962d674b4d28a8c8e5',
        'f77c745f2c31a502dfdd648e714bfb0d73143fd9e8de531c296ab5ff22dc03ad',
      ],
    ],
  ] as [PresetName, FixtureOverrides, string[]][])(
    'version 1 output is byte-identical to the first generator: %s %o',
    async (preset, overrides, sha256s) => {
      const { files, manifest } = await generate(preset, overrides)
      const hashes = await Promise.all(
        files.map(async (file) =>
          createHash('sha256')
            .update(await readFile(file))
            .digest('hex'),
        ),
      )
      expect(hashes).toEqual(sha256s)
      expect(manifest.files.map((f) => f.sha256)).toEqual(sha256s)
    },
  )

  test('rejects bad parameters naming them', async () => {
    expect(() => resolveParams('TINY', { gc: 0.95 })).toThrow(/gc must be in \[0\.1, 0\.9\], got 0\.95/)
    expect(() => resolveParams('TINY', { minLength: 500, maxLength: 100 })).toThrow(/max length/)
    expect(() => resolveParams('TINY', { files: 11 })).toThrow(/files/)
  })
})

describe('stop-free frames per 500 bp chunk', () => {
  // Band for the `coding` defaults: a chunk lying inside one gene keeps exactly that gene's frame, and almost nothing
  // else survives 166 codons. With 90% coding sequence and genes of ~1.35 kb on average, a 500 bp window falls inside
  // one gene ~60-70% of the time, plus short single-chunk records that fit inside genes more easily. Upstream's real
  // 1M-read run sent 794,577 proteins to ESM-2: ~0.8 per read, reads being about one chunk each. So [0.55, 0.95]:
  // realistic load for the GPU stages, far from both "nothing" (uniform) and "every frame".
  test.each(['MEDIUM', 'TYPICAL'] as const)(
    'the coding model at the %s defaults is in [0.55, 0.95]',
    async (preset) => {
      const { manifest } = await generate(preset, { seed: 2, records: 3000 })
      const rate = manifest.stopFreeFrames.find((s) => s.chunkLength === 500)!.perChunk
      expect(rate).toBeGreaterThanOrEqual(0.55)
      expect(rate).toBeLessThanOrEqual(0.95)
    },
  )

  test('the uniform model (upstream) gives ~0: below 0.02', async () => {
    const { manifest } = await generate('TYPICAL', { seed: 2, records: 3000, model: 'uniform' })
    expect(manifest.stopFreeFrames.find((s) => s.chunkLength === 500)!.perChunk).toBeLessThan(0.02)
  })
})

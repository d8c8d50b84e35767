import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { execa } from 'execa'
import { afterAll, expect, test } from 'vitest'
import { readFasta } from '../src/fixtures/fasta-reader.ts'
import { generateFixture } from '../src/fixtures/generate.ts'
import { inspectFasta } from '../src/fixtures/inspect.ts'
import { resolveParams } from '../src/fixtures/presets.ts'

/**
 * Fixture-layer performance (issue 3): generation >= 300 MB/s of FASTA written (aim 600; upstream's generator: 2.3 MB/s),
 * parsing/inspection >= 200 MB/s, and peak RSS < 100 MB while writing the PRODUCTION preset (6M records, ~5.5 GB).
 * Run: npx vitest bench --project 'unit (bench)' benchmarks/fixtures.bench.ts
 * FIXTURES_BENCH_PRODUCTION_RECORDS=N shortens the RSS run (default: the full preset).
 */

const root = await mkdtemp(join(tmpdir(), 'fixtures-bench-'))
afterAll(() => rm(root, { recursive: true, force: true }))

/** ~185 MB of FASTA with the TYPICAL length distribution (coding model, 60-column lines). */
const params = resolveParams('TYPICAL', { records: 200_000, seed: 1 })
const dataDir = join(root, 'typical')
const { totals } = await generateFixture(params, dataDir)
const dataFile = join(dataDir, 'part-001.fa')
const mbPerSecond = (meanMs: number) => totals.bytes / 1e6 / (meanMs / 1000)

test('generation throughput (coding model, TYPICAL lengths, ~185 MB)', async ({ bench, annotate }) => {
  const out = join(root, 'gen')
  const result = await bench(
    'generate 200k records',
    { afterEach: () => rm(out, { recursive: true, force: true }) },
    async () => {
      await generateFixture(params, out)
    },
  ).run({ iterations: 5, warmupIterations: 1, time: 0 })
  const rate = mbPerSecond(result.latency.mean)
  await annotate(`generation: ${rate.toFixed(0)} MB/s (mean of 5, ${(totals.bytes / 1e6).toFixed(0)} MB per run)`)
  expect(rate).toBeGreaterThanOrEqual(300)
})

test('parse throughput (validating reader, plain file)', async ({ bench, annotate }) => {
  const result = await bench('parse', async () => {
    await readFasta(dataFile, () => {})
  }).run({ iterations: 5, warmupIterations: 1, time: 0 })
  const rate = mbPerSecond(result.latency.mean)
  await annotate(`parse: ${rate.toFixed(0)} MB/s`)
  expect(rate).toBeGreaterThanOrEqual(200)
})

test('inspection throughput (parse + lengths + GC + stop-free frames at 300 and 500 bp)', async ({
  bench,
  annotate,
}) => {
  const result = await bench('inspect', async () => {
    await inspectFasta(dataFile)
  }).run({ iterations: 5, warmupIterations: 1, time: 0 })
  const rate = mbPerSecond(result.latency.mean)
  await annotate(`inspect: ${rate.toFixed(0)} MB/s`)
  expect(rate).toBeGreaterThanOrEqual(200)
})

test('peak RSS while writing the PRODUCTION preset, in its own process', { timeout: 900_000 }, async ({ annotate }) => {
  const records = Number(process.env.FIXTURES_BENCH_PRODUCTION_RECORDS ?? 6_000_000)
  const script = join(root, 'production.mjs')
  const generate = resolve(import.meta.dirname, '../src/fixtures/generate.ts')
  const presets = resolve(import.meta.dirname, '../src/fixtures/presets.ts')
  // The child reports getrusage's peak RSS (all threads, kB) and what it wrote; the files are deleted right after.
  await writeFile(
    script,
    `const { generateFixture } = await import(${JSON.stringify(generate)})
const { resolveParams } = await import(${JSON.stringify(presets)})
const started = performance.now()
const m = await generateFixture(resolveParams('PRODUCTION', { records: ${records} }), process.argv[2])
console.log(JSON.stringify({ bytes: m.totals.bytes, seconds: (performance.now() - started) / 1000, maxRssKb: process.resourceUsage().maxRSS }))`,
  )
  const out = join(root, 'production')
  try {
    const child = await execa(process.execPath, [script, out])
    const { bytes, seconds, maxRssKb } = JSON.parse(child.stdout) as {
      bytes: number
      seconds: number
      maxRssKb: number
    }
    const peakMb = maxRssKb / 1024
    await annotate(
      `PRODUCTION (${records} records, ${(bytes / 1e9).toFixed(2)} GB): ${(bytes / 1e6 / seconds).toFixed(0)} MB/s, peak RSS ${peakMb.toFixed(0)} MiB`,
    )
    expect(peakMb).toBeLessThan(100)
  } finally {
    await rm(out, { recursive: true, force: true })
  }
})

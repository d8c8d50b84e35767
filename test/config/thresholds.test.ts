import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { DEFAULT_THRESHOLDS, loadThresholds, mergeThresholds, ThresholdsSchema } from '../../src/config/thresholds.ts'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'thresholds-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

test("the defaults are upstream's targets and pass their own schema", () => {
  expect(ThresholdsSchema.parse(DEFAULT_THRESHOLDS)).toEqual(DEFAULT_THRESHOLDS)
  expect(DEFAULT_THRESHOLDS.perf02.minUtilPct).toBe(80)
  expect(DEFAULT_THRESHOLDS.perf03).toEqual({ gpus: 2, stage: 'ESM-2 Feature Extraction', minSpeedup: 1.9 })
  expect(DEFAULT_THRESHOLDS.scalingBands['2']).toEqual([1.6, 2.0])
  expect(DEFAULT_THRESHOLDS.perf01.targetMs).toBe(36_000_000)
})

test('an override changes only the keys it names', () => {
  const merged = mergeThresholds({ perf02: { minUtilPct: 70 } })
  expect(merged.perf02).toEqual({ ...DEFAULT_THRESHOLDS.perf02, minUtilPct: 70 })
  expect(merged.perf01).toEqual(DEFAULT_THRESHOLDS.perf01)
})

test('without VIRNUCPRO_BENCH_THRESHOLDS the defaults are in force', () => {
  expect(loadThresholds({})).toBe(DEFAULT_THRESHOLDS)
})

test('a host file is merged over the defaults', async () => {
  const file = join(dir, 'h200.json')
  await writeFile(file, JSON.stringify({ bottleneck: { maxStageShare: 0.5 } }))
  expect(loadThresholds({ VIRNUCPRO_BENCH_THRESHOLDS: file }).bottleneck.maxStageShare).toBe(0.5)
})

test.each([
  ['{"perf02": {"minUtilPct": 180}}', /h\.json: perf02\.minUtilPct: /],
  ['{"perf09": {}}', /h\.json: unknown threshold section 'perf09'/],
  ['{"perf02": {"minUtil', /h\.json: .*JSON/],
  ['[1, 2]', /h\.json: expected a JSON object/],
  [
    '{"perf02": {"minUtilPctt": 50}}',
    /h\.json: perf02\.minUtilPctt is not a threshold \(did you mean perf02\.minUtilPct\?\); rename or remove it/,
  ],
  [
    '{"perf02": 5}',
    /h\.json: perf02 must be an object of thresholds, got a number \(5\); write it as "perf02": \{"minUtilPct": 80\}$/,
  ],
  ['{"memory": "lots"}', /h\.json: memory must be an object of thresholds, got a string \("lots"\)/],
  ['{"bottleneck": null}', /h\.json: bottleneck must be an object of thresholds, got null/],
  [
    '{"scalingBands": {"2": [2.0, 1.6]}}',
    /h\.json: scalingBands\.2 is \[2, 1\.6\]: its low end is above its high end; write it as \[low, high\], e\.g\. \[1\.6, 2\]$/,
  ],
  [
    '{"scalingBands": {"two": [1.6, 2]}}',
    /h\.json: scalingBands\.two: a band's key is the GPU count it is for, 2 or more/,
  ],
  [
    '{"perf02": {"stages": ["ESM2 Feature Extraction"]}}',
    /h\.json: perf02\.stages\[0\] 'ESM2 Feature Extraction' is not a pipeline stage \(did you mean 'ESM-2 Feature Extraction'\?\); use a stage name/,
  ],
  [
    '{"perf03": {"stage": "Translation"}}',
    /h\.json: perf03\.stage 'Translation' is not a pipeline stage; use a stage name as the pipeline logs it: Sequence Chunking, /,
  ],
  [
    '{"perf02": {"minUtilPct": "50"}}',
    /h\.json: perf02\.minUtilPct: .*expected number.* \(got "50"\); change that value$/,
  ],
])('a bad host file (%s) is one error naming the file and the key', async (text, message) => {
  const file = join(dir, 'h.json')
  await writeFile(file, text)
  expect(() => loadThresholds({ VIRNUCPRO_BENCH_THRESHOLDS: file })).toThrow(message)
  expect(() => loadThresholds({ VIRNUCPRO_BENCH_THRESHOLDS: file })).toThrow(
    /^VIRNUCPRO_BENCH_THRESHOLDS=\S+h\.json: [^\n]+; [^\n]+$/,
  )
})

test('a UTF-8 byte-order mark is dropped, as most JSON tools do; UTF-16 is named with the fix', async () => {
  const file = join(dir, 'bom.json')
  await writeFile(file, `\uFEFF${JSON.stringify({ perf02: { minUtilPct: 70 } })}`)
  expect(loadThresholds({ VIRNUCPRO_BENCH_THRESHOLDS: file }).perf02.minUtilPct).toBe(70)
  await writeFile(file, Buffer.from(`\uFEFF${JSON.stringify({ perf02: { minUtilPct: 70 } })}`, 'utf16le'))
  expect(() => loadThresholds({ VIRNUCPRO_BENCH_THRESHOLDS: file })).toThrow(
    `VIRNUCPRO_BENCH_THRESHOLDS=${file}: holds UTF-16LE text, not UTF-8 JSON; save it as UTF-8 text`,
  )
})

test('bad JSON is one line with all that JSON.parse said, the bytes it quotes escaped', async () => {
  const file = join(dir, 'broken.json')
  await writeFile(file, '{"perf02":\n\tx}')
  let message = ''
  try {
    loadThresholds({ VIRNUCPRO_BENCH_THRESHOLDS: file })
  } catch (error) {
    message = (error as Error).message
  }
  expect(message).toMatch(/^VIRNUCPRO_BENCH_THRESHOLDS=\S+broken\.json: not valid JSON \(.*\); correct the JSON there$/)
  // V8 quotes the text around the bad token; here that takes a newline and a tab, shown escaped.
  expect(message).toContain('\\n\\tx')
})

test('a missing file says so, and how to go on', () => {
  expect(() => loadThresholds({ VIRNUCPRO_BENCH_THRESHOLDS: join(dir, 'none.json') })).toThrow(
    `VIRNUCPRO_BENCH_THRESHOLDS=${join(dir, 'none.json')}: no such file; point it at a readable JSON file, or unset it`,
  )
})

test('every key of every section of the defaults is accepted back as an override (no known key refused)', () => {
  for (const [section, values] of Object.entries(DEFAULT_THRESHOLDS))
    expect(mergeThresholds({ [section]: values })).toEqual(DEFAULT_THRESHOLDS)
})

test('bottleneck.imbalanceMinUtilPct: 20% by default, a percentage, and defaulted for records written before it', () => {
  expect(DEFAULT_THRESHOLDS.bottleneck.imbalanceMinUtilPct).toBe(20)
  expect(mergeThresholds({ bottleneck: { imbalanceMinUtilPct: 35 } }).bottleneck.imbalanceMinUtilPct).toBe(35)
  expect(() => mergeThresholds({ bottleneck: { imbalanceMinUtilPct: 120 } }, 'h.json')).toThrow(
    /^h\.json: bottleneck\.imbalanceMinUtilPct: /,
  )
  const { imbalanceMinUtilPct: _, ...older } = DEFAULT_THRESHOLDS.bottleneck
  expect(ThresholdsSchema.parse({ ...DEFAULT_THRESHOLDS, bottleneck: older }).bottleneck.imbalanceMinUtilPct).toBe(20)
})

// Issue 56: the settings study judges outputs as VirNucPro judges its v2.0 path, by its own threshold.
test('study.minConsensusAgreement: 99% by default, a share, a typo named, and defaulted for records written before', () => {
  expect(DEFAULT_THRESHOLDS.study.minConsensusAgreement).toBe(0.99)
  expect(mergeThresholds({ study: { minConsensusAgreement: 0.995 } }).study.minConsensusAgreement).toBe(0.995)
  expect(() => mergeThresholds({ study: { minConsensusAgreement: 99 } }, 'h.json')).toThrow(
    /^h\.json: study\.minConsensusAgreement: .* \(got 99\); change that value$/,
  )
  expect(() => mergeThresholds({ study: { minConsensusAgrement: 0.9 } } as never, 'h.json')).toThrow(
    'h.json: study.minConsensusAgrement is not a threshold (did you mean study.minConsensusAgreement?); rename or remove it (study has minConsensusAgreement)',
  )
  const { study: _, ...older } = DEFAULT_THRESHOLDS
  expect(ThresholdsSchema.parse(older).study).toEqual({ minConsensusAgreement: 0.99 })
})

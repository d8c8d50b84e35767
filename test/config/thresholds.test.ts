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
])('a bad host file (%s) is one error naming the file and the key', async (text, message) => {
  const file = join(dir, 'h.json')
  await writeFile(file, text)
  expect(() => loadThresholds({ VIRNUCPRO_BENCH_THRESHOLDS: file })).toThrow(message)
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

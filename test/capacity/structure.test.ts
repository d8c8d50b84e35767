import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  FITTED_SIZES,
  MIN_FITTED_RECORDS,
  planSizes,
  repeatingUnit,
  SIZE_RATIO,
  structureOf,
  UNITS_AT_LARGEST,
} from '../../src/capacity/structure.ts'
import { MIN_SIZE_RATIO, SMALLEST_SAMPLE } from '../../src/config/capacity-sample.ts'
import { VIRNUCPRO_TARGETS } from '../../src/config/capacity-targets.ts'
import type { StageProgress } from '../../src/results/schema/index.ts'

const ESM = 'ESM-2 Feature Extraction'
/** A 1-GPU VirNucPro probe as its log reads: one file of 1,600 proteins from 1,000 records, the model built first. */
const fileLines = (records: number, itemsPerRecord = 1.6): StageProgress => ({
  stage: ESM,
  source: 'file-lines',
  worker: null,
  total: records * itemsPerRecord,
  lines: 2,
  atMs: [20_000, 25_000],
  done: [0, records * itemsPerRecord],
  setupMs: 18_000,
  itemsPerFile: 10_000,
})

describe('structureOf', () => {
  test('reads the per-file stage, its files and items a record, and the batching stage from the same series', () => {
    const s = structureOf({ records: 1_000, progress: [fileLines(1_000)] }, VIRNUCPRO_TARGETS.batching)
    expect(s.perFile).toEqual({ stage: ESM, itemsPerFile: 10_000, itemsPerRecord: 1.6 })
    expect(s.batching).toMatchObject({ stage: ESM, itemsPerWorker: 2_000, itemsPerRecord: 1.6, counted: true })
  })

  test('a probe without file lines has no per-file stage; a batching stage it did not log is assumed 1 item a record', () => {
    const s = structureOf({ records: 500, progress: [] }, VIRNUCPRO_TARGETS.batching)
    expect(s.perFile).toBeNull()
    expect(s.batching).toMatchObject({ itemsPerRecord: 1, counted: false })
    expect(repeatingUnit(s, 2)!.why).toContain('not counted by the probe')
  })

  test('workers without a main-process series: their totals summed', () => {
    const worker = (w: number): StageProgress => ({ ...fileLines(500), source: 'worker-span', worker: w, setupMs: 0 })
    const s = structureOf({ records: 1_000, progress: [worker(0), worker(1)] }, VIRNUCPRO_TARGETS.batching)
    expect(s.batching!.itemsPerRecord).toBeCloseTo(1.6)
    expect(s.perFile).toBeNull()
  })

  test('a probe of no records is refused', () => {
    expect(() => structureOf({ records: 0, progress: [] }, null)).toThrow(RangeError)
  })
})

describe('repeatingUnit', () => {
  const s = structureOf({ records: 1_000, progress: [fileLines(1_000)] }, VIRNUCPRO_TARGETS.batching)
  test('1 GPU: two and a half files of 10,000 proteins at 1.6 a record are 15,625 records', () => {
    expect(repeatingUnit(s, 1)).toMatchObject({ records: 15_625 })
    expect(repeatingUnit(s, 1)!.why).toContain('once per file of 10,000 items')
  })
  test('k GPUs: from 1.25 to 5 buffers of 2,000 proteins on each of k workers', () => {
    expect(repeatingUnit(s, 2)).toMatchObject({ records: Math.ceil((5 * 2 * 2_000) / 1.6), floorRecords: 3_125 })
    expect(repeatingUnit(s, 4)).toMatchObject({ records: 25_000, floorRecords: 6_250 })
  })
  test('a pipeline without either has no unit', () => {
    expect(repeatingUnit(structureOf({ records: 10, progress: [] }, null), 1)).toBeNull()
  })
})

describe('planSizes', () => {
  test('45,000 reads of VirNucPro on 1 GPU: 3,906 / 7,813 / 15,625 fitted (1, 2 and 3 files), the whole sample held out', () => {
    const s = structureOf({ records: 1_000, progress: [fileLines(1_000)] }, VIRNUCPRO_TARGETS.batching)
    const plan = planSizes([repeatingUnit(s, 1)], 45_000)
    expect(plan.fitted).toEqual([3_906, 7_813, 15_625])
    // Files each size makes at 1.6 proteins a record: none within a tenth of a file of a boundary.
    const files = plan.fitted.map((r) => (r * 1.6) / 10_000)
    expect(files.map(Math.ceil)).toEqual([1, 2, 3])
    for (const f of files) expect(Math.abs(f - Math.round(f))).toBeGreaterThan(0.1)
    expect(plan.heldOut).toEqual([45_000, 31_250])
    expect(plan.tooSmall).toBeNull()
    expect(plan.why).toContain('2.5 files')
  })

  // The H200 of 2026-12-07: 45,000 reads of 100-200 bp at 1.54 proteins a read, v2.0 on 1 GPU, were planned at 810 /
  // 1,620 / 3,239 reads: 1,247 proteins flushed without a batch, 2,493 barely past the 2,000-protein buffer.
  test('v2.0 on 1 GPU: every fitted size packs batches past its buffer, a quarter past one at the smallest', () => {
    const v2 = structureOf({ records: 1_000, progress: [fileLines(1_000, 1.54)] }, VIRNUCPRO_TARGETS.batching)
    const plan = planSizes([repeatingUnit(v2, 1, 'v2.0')], 45_000)
    const buffers = plan.fitted.map((r) => (r * 1.54) / 2_000)
    expect(buffers[0]).toBeGreaterThanOrEqual(1.25)
    expect(buffers.at(-1)).toBeGreaterThanOrEqual(5)
    expect(plan.fitted).toHaveLength(3)
    expect(plan.heldOut[0]).toBe(45_000)
    expect(plan.why).toContain('every fitted run on the packed path')
  })

  test("today's 20,000-read sample is too small for two files with a larger size held out: says which sample would do", () => {
    const s = structureOf({ records: 1_000, progress: [fileLines(1_000)] }, VIRNUCPRO_TARGETS.batching)
    const plan = planSizes([repeatingUnit(s, 1)], 20_000)
    // Half the sample, 10,000 records, is 1.6 files: kept half a file past one, 1.5 files (9,375 records).
    expect(plan.fitted.at(-1)).toBe(9_375)
    expect(plan.tooSmall?.needRecords).toBe(31_250)
    expect(plan.tooSmall?.text).toContain('a sample of 31,250 records would do')
  })

  // The H200 run of 2026-11-29: 16,000 reads at 1.27 proteins a read; half of it, 8,000 reads, made 10,160 proteins,
  // two files, the second of 160 paying a whole ESM-2 build.
  test('a sample too small for the plan: its largest size half a file past a whole one, never on a boundary', () => {
    const s = structureOf({ records: 1_000, progress: [fileLines(1_000, 1.27)] }, VIRNUCPRO_TARGETS.batching)
    const plan = planSizes([repeatingUnit(s, 1)], 16_000)
    const files = plan.fitted.map((r) => (r * 1.27) / 10_000)
    expect(files.at(-1)).toBeCloseTo(0.5, 2)
    for (const f of files) expect(Math.abs(f - Math.round(f))).toBeGreaterThan(0.1)
    expect(plan.tooSmall?.text).toContain('half a unit past a whole one')
  })

  test('no unit: up to half the sample, said so', () => {
    const plan = planSizes([null], 8_000)
    expect(plan.fitted).toEqual([1_000, 2_000, 4_000])
    expect(plan.why).toContain('no unit that repeats')
  })

  test('property: at least two sizes, each x1.5 above the last, the largest covers the unit or half the sample, a held-out size above it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: SMALLEST_SAMPLE, max: 10_000_000 }),
        fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: null }),
        (sample, need) => {
          const plan = planSizes([need === null ? null : { gpuCount: 1, records: need, why: 'x' }], sample)
          const largest = plan.fitted.at(-1)!
          expect(plan.fitted.length).toBeGreaterThanOrEqual(2)
          expect(plan.fitted.length).toBeLessThanOrEqual(FITTED_SIZES)
          for (let i = 1; i < plan.fitted.length; i++)
            expect(plan.fitted[i]).toBeGreaterThanOrEqual(plan.fitted[i - 1]! * MIN_SIZE_RATIO)
          expect(largest).toBeLessThanOrEqual(Math.max(1, Math.floor(sample / SIZE_RATIO)))
          if (need !== null && need >= 2 && need * SIZE_RATIO <= sample) expect(largest).toBe(need)
          const underFloor = plan.fitted[0]! < MIN_FITTED_RECORDS
          expect(plan.tooSmall !== null).toBe(
            (need !== null && need * SIZE_RATIO > sample) || (underFloor && need === null),
          )
          for (const h of plan.heldOut) expect(h).toBeGreaterThanOrEqual(largest * MIN_SIZE_RATIO)
          expect(plan.heldOut[0]).toBe(sample)
          if (largest >= MIN_FITTED_RECORDS * SIZE_RATIO ** (FITTED_SIZES - 1)) expect(plan.fitted).toHaveLength(3)
        },
      ),
      { seed: 48, numRuns: 300 },
    )
  })

  test('issue 58: small samples get sizes they can support, said so, never 500 / 501 nor one size', () => {
    const at1002 = planSizes([null], 1_002)
    expect(at1002.fitted).toEqual([125, 251, 501])
    expect(at1002.tooSmall?.text).toMatch(
      /leaves room only for sizes under 500 records.*a sample of 4,000 records would do/,
    )
    expect(planSizes([null], 200).fitted).toEqual([25, 50, 100])
    expect(planSizes([null], SMALLEST_SAMPLE).fitted).toEqual([1, 2])
    expect(() => planSizes([null], SMALLEST_SAMPLE - 1)).toThrow(RangeError)
    // Above the floor, the floor brings no two sizes closer than x1.5 (800: 500 / 800, not 200 / 400 / 800).
    expect(planSizes([null], 1_600).fitted).toEqual([500, 800])
  })

  test('UNITS_AT_LARGEST is two: one unit cannot show a per-unit cost', () => {
    expect(UNITS_AT_LARGEST).toBe(2)
  })
})

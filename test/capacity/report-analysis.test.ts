import { describe, expect, test } from 'vitest'
import type { CapacityStats } from '../../src/capacity/analyze.ts'
import { analyzeCapacityRecords } from '../../src/capacity/report-analysis.ts'
import type { ResultRecord } from '../../src/results/schema/index.ts'
import { CPU_1_2_WORKERS, capacityRecord, H200_1GPU } from '../report/support/capacity.ts'
import { loadDemo } from '../report/support/demo.ts'

const h200 = await capacityRecord(H200_1GPU)
const cpu = await capacityRecord(CPU_1_2_WORKERS)
const statsOf = (r: ResultRecord) => r.stats as unknown as CapacityStats

describe('capacity analysis on the real H200 record (1 GPU at 1,000 and 10,000 records)', () => {
  const [entry] = analyzeCapacityRecords([h200]).entries
  const row = entry!.configurations[0]!

  test('one column per size: the largest measured, then 45,000 and 6,000,000', () => {
    expect(entry!.columns).toEqual([
      { sequences: 10_000, role: 'measured' },
      { sequences: 45_000, role: 'typical' },
      { sequences: 6_000_000, role: 'production' },
    ])
    expect(entry!.sizes).toEqual([1_000, 10_000])
    expect(entry!.targetMs).toBe(36_000_000)
  })

  test("the 6 M cell is the record's own projection and PERF-01 verdict", () => {
    const at6m = statsOf(h200).configurations[0]!.at[2]!.wallMs
    const cell = row.cells[2]!
    expect(cell.wallMs).toEqual({ value: at6m.estimate, ci: { low: at6m.ci!.low, high: at6m.ci!.high } })
    expect(cell.wallMs!.value / 3_600_000).toBeCloseTo(5.574, 3)
    expect(cell.perf01).toBe('pass')
    expect(cell.speedup).toBeNull()
    expect(cell.perf03).toBeNull()
  })

  test('every capacity verdict of the record lands in its cell (by id), none is invented', () => {
    const byId = new Map(h200.verdicts.map((v) => [v.id, v.verdict]))
    const where = (n: number) => (n === 10_000 ? 'measured' : String(n))
    for (const cell of row.cells) {
      expect(cell.perf01).toBe(byId.get(`capacity/1/perf01/${where(cell.sequences)}`))
      for (const s of cell.perf02)
        expect(s.verdict).toBe(byId.get(`capacity/1/perf02/${s.stage}/${where(cell.sequences)}`))
    }
    expect(row.cells.map((c) => c.perf02.find((s) => s.stage.startsWith('DNABERT'))?.verdict)).toEqual([
      'fail',
      'fail',
      'inconclusive',
    ])
  })

  test('each GPU stage as fixed cost (start-up) and steady state, with its steady-state verdict', () => {
    const dnabert = row.stages.find((s) => s.stage === 'DNABERT-S Feature Extraction')!
    expect(dnabert.startupMs?.value).toBeCloseTo(1094.7, 1)
    expect(dnabert.steadyUtilPct?.value).toBe(70)
    expect(dnabert.steadyVerdict).toBe('fail')
    expect(dnabert.msPerSequence.value).toBeGreaterThan(0)
    expect(row.stages.find((s) => s.stage === 'ESM-2 Feature Extraction')?.steadyVerdict).toBe('pass')
  })

  test('the input, what the CIs cover, the constant-part notes and the curve', () => {
    expect(entry!.input).toEqual({
      source: 'generated',
      sha256Prefix: '4f7a7b704c4a',
      records: 10_000,
      workPerRecord: 748.1772,
      preset: 'MEDIUM',
    })
    expect(entry!.covers).toMatch(/^run-to-run variation/)
    expect(entry!.notes).toHaveLength(3)
    expect(entry!.notes[0]).toMatch(
      /^1 GPU: 'startup: DNABERT-S Feature Extraction' held constant .*slope CI includes 0/,
    )
    expect(entry!.curves).toHaveLength(18)
    expect(entry!.curves[0]).toMatchObject({ label: '1 GPU', gpuCount: 1, sequences: 100 })
    expect(entry!.comparisons).toEqual([])
  })
})

describe('where each stage steady part was read', () => {
  test('a note per configuration names the source of each stage; a record from before sources: batch lines', () => {
    const record = structuredClone(h200)
    statsOf(record).configurations[0]!.steady = [
      { stage: 'ESM-2 Feature Extraction', runs: 4, of: 4, source: 'worker-span' },
      { stage: 'DNABERT-S Feature Extraction', runs: 3, of: 4 } as never,
    ]
    const [entry] = analyzeCapacityRecords([record]).entries
    expect(entry!.notes).toContain(
      '1 GPU: steady parts read inside the runs: ESM-2 Feature Extraction from worker spans (4 of 4 runs); DNABERT-S Feature Extraction from batch lines (3 of 4 runs)',
    )
  })
})

describe('capacity analysis on the CPU record (1 and 2 worker processes standing in for 1 and 2 GPUs)', () => {
  const [entry] = analyzeCapacityRecords([cpu]).entries
  const [one, two] = entry!.configurations

  test('k > 1 cells carry speedup, efficiency and PERF-03 against the baseline, with their verdicts', () => {
    expect(one!.cells.every((c) => c.speedup === null)).toBe(true)
    const measured = two!.cells[0]!
    expect(measured.speedup!.value).toBeCloseTo(statsOf(cpu).comparisons[0]!.at[0]!.speedup.estimate, 12)
    expect(measured.efficiency!.value).toBeCloseTo(measured.speedup!.value / 2, 12)
    expect(measured.speedupVerdict).toBe('fail')
    expect(measured.perf03?.verdict).toBe('fail')
    expect(two!.cells[2]!.perf01).toBe('inconclusive')
    expect(one!.cells[2]!.perf01).toBe('fail')
  })

  test('a break-even CI whose upper end never breaks even (Infinity, stored as null) reads "never"', () => {
    const [cmp] = entry!.comparisons
    expect(cmp!.breakEven.sequences).toBeCloseTo(290.63, 2)
    expect(cmp!.breakEven.ci).toEqual({ low: expect.closeTo(91.24, 2), high: null })
    expect(cmp!.breakEvenVerdict).toBe('inconclusive')
    expect(cmp!.asymptoticVerdict).toBe('inconclusive')
  })

  test('in memory, before JSON: an Infinity break-even is "never" too, and never reaches summary.json as a number', () => {
    const record = structuredClone(cpu)
    statsOf(record).comparisons[0]!.breakEvenSequences = {
      estimate: Number.POSITIVE_INFINITY,
      ci: { low: 5_000, high: Number.POSITIVE_INFINITY, level: 0.95 },
    }
    const [cmp] = analyzeCapacityRecords([record]).entries[0]!.comparisons
    expect(cmp!.breakEven).toEqual({ sequences: null, ci: { low: 5_000, high: null } })
  })
})

describe('capacity analysis, other records', () => {
  test('records of other kinds are not read; none: no entries', async () => {
    expect(analyzeCapacityRecords((await loadDemo()).records).entries).toEqual([])
  })

  test('a skipped capacity record without stats is an entry with its reason and nothing projected', () => {
    const skipped = { ...h200, state: 'skipped' as const, reason: 'no GPU here', stats: {}, verdicts: [] }
    const [entry] = analyzeCapacityRecords([skipped]).entries
    expect(entry).toMatchObject({ state: 'skipped', reason: 'no GPU here', answer: null, configurations: [] })
    expect(entry!.columns).toEqual([])
    // What was measured still reads from the provenance (issue 36: never "not recorded" where the record has it).
    expect(entry!.input?.sha256Prefix).toBe(h200.provenance.input!.source.sha256.slice(0, 12))
  })

  test('the user’s own sample size is a column of its own, between the measured size and the targets', () => {
    const record = structuredClone(h200)
    const c = statsOf(record).configurations[0]!
    c.at.splice(1, 0, { sequences: 20_000, wallMs: { estimate: 75_000, ci: null } })
    const [entry] = analyzeCapacityRecords([record]).entries
    expect(entry!.columns.map((x) => x.role)).toEqual(['measured', 'sample', 'typical', 'production'])
    expect(entry!.configurations[0]!.cells[1]!.wallMs).toEqual({ value: 75_000, ci: null })
  })
})

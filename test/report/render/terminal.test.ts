import { describe, expect, test } from 'vitest'
import { buildReport, type Report } from '../../../src/report/analyses/build.ts'
import { terminalSummary } from '../../../src/report/render/terminal.ts'
import { CPU_1_2_WORKERS, capacityRecord, H200_1GPU, reportOf } from '../support/capacity.ts'
import { loadDemo } from '../support/demo.ts'

const h200 = await capacityRecord(H200_1GPU)
const cpu = await capacityRecord(CPU_1_2_WORKERS)

describe('terminal summary: projected capacity verdicts', () => {
  const lines = terminalSummary(reportOf([h200, cpu]), '/out', ['a', 'b'])

  // Layout changed deliberately (issue 36): the answer's sentence, then its time and k-vs-1 tables, hours throughout;
  // issue 44: a stopped answer says how it stopped (these records ran no design), and the level says why it is 95%.
  test("each record's answer: its sentence, then hours at 45 K and 6 M per configuration with PERF-01", () => {
    expect(lines).toContain(
      'gpu-report: capacity capacity, 1 GPU at 1,000 / 10,000 seqs: UNCHECKED (no held-out run; judged once, no design: 1 of 4 verdicts undecided): 6 M sequences take 5.6 h [5.3, 5.8] on 1 GPU (within 10 h: PASS); 2 and 4 and 8 GPUs not measured: a k-GPU answer needs a host of k GPUs.',
    )
    expect(lines).toContain(
      'gpu-report: capacity     1 worker   0.349 [0.312, 0.385]                   PASS               46.4 [41.5, 51.3]                         FAIL',
    )
  })

  // Issue 44: `FINAL ... (undecided against 10 h)` said no why; each UNDECIDED's reason is the line under the sentence.
  test('each undecided verdict says why and what would decide it, right under the sentence', () => {
    const head = lines.findIndex((l) => l.startsWith('gpu-report: capacity capacity, 1 worker + 2 workers'))
    expect(lines[head]).toContain('UNCHECKED (no held-out run; judged once, no design: 2 of 9 verdicts undecided)')
    expect(lines.slice(head + 1, head + 5)).toEqual([
      // Issue 58: each configuration's reason for UNCHECKED and how to check it, first.
      expect.stringMatching(/^gpu-report: capacity {5}UNCHECKED, 1 worker: no held-out run: .*; to check it: /),
      expect.stringMatching(/^gpu-report: capacity {5}UNCHECKED, 2 workers: no held-out run: .*; to check it: /),
      expect.stringMatching(
        /^gpu-report: capacity {5}PERF-01 on 2 workers at 6,000,000 sequences: UNDECIDED: wall time 34\.254 h .*; to decide it: measure it again under the decided design/,
      ),
      expect.stringMatching(
        /^gpu-report: capacity {5}speedup, 2 workers vs 1 worker, .*: UNDECIDED: .*; to decide it: /,
      ),
    ])
  })

  test('a known answer prints no answer line: its suite line names it', () => {
    const known = {
      ...structuredClone(h200),
      id: 'known-answer-prework',
      name: 'known answer: prework (1 GPU at 1,000 / 10,000 seqs)',
    }
    const all = terminalSummary(reportOf([known]), '/out', [])
    expect(all.filter((l) => l.startsWith('gpu-report: capacity '))).toEqual([])
    expect(all.some((l) => /^gpu-report: \w+ +capacity +known answer: prework \(1 GPU/.test(l))).toBe(true)
  })

  test('for k > 1 the speedup at the production size against its threshold, with the terms defined', () => {
    expect(lines).toContain(
      'gpu-report: capacity     2 workers  1.36 [0.58, 4.67]                            >= 1.6         UNDECIDED',
    )
    expect(lines.some((l) => l.includes('speedup (k GPUs against 1): the 1-GPU wall time over'))).toBe(true)
  })

  test('after the suite lines, before the line that says where the reports are', () => {
    const first = lines.findIndex((l) => l.startsWith('gpu-report: capacity '))
    expect(first).toBeGreaterThan(lines.findIndex((l) => /^gpu-report: \w+\s+capacity\s/.test(l)))
    expect(lines.at(-1)).toBe('gpu-report: 2 reports in /out (open index.html; trace.json opens in ui.perfetto.dev)')
    expect(lines.filter((l) => l.startsWith('gpu-report: capacity capacity, '))).toHaveLength(2)
  })

  test('a configuration without a size model is an ERROR line with its reason', () => {
    const record = structuredClone(h200)
    ;(record.stats as { notFitted: unknown[] }).notFitted = [{ label: '2 GPUs', reason: 'run 1 ended as oom' }]
    expect(terminalSummary(reportOf([record]), '/out', [])).toContain(
      'gpu-report: capacity 2 GPUs: ERROR no size model: run 1 ended as oom',
    )
  })

  test('a run without capacity records prints no capacity line', async () => {
    const demo = await loadDemo()
    expect(terminalSummary(reportOf(demo.records), '/out', []).some((l) => l.includes('capacity '))).toBe(false)
  })
})

describe('terminal summary: trends', () => {
  type Key = { metric: string; recordId: string; host: string; gpuModel: string }
  const loaded = (regressions: Key[], suspects: Key[] = []) =>
    ({
      state: 'loaded',
      file: '/h.sqlite',
      series: 4,
      changes: [{ regression: true }, { regression: false }],
      regressions: regressions.map((r) => ({
        ...r,
        how: 'change-point',
        fromCommit: 'a'.repeat(40),
        toCommit: 'b'.repeat(40),
        relativeChange: 0.123,
      })),
      suspects: suspects.map((r) => ({
        ...r,
        how: 'newest-vs-window',
        fromCommit: 'b'.repeat(40),
        toCommit: 'c'.repeat(40),
        relativeChange: 0.2,
        pointsRegressed: 1,
      })),
    }) as unknown as Report['trends']

  test('a line with the change points, one more naming what the newest run brings to light; none without a history', async () => {
    const demo = buildReport(await loadDemo())
    const lines = (trends: Report['trends']) =>
      terminalSummary({ ...demo, trends }, '/out', []).filter((l) => /trends|history|newest/i.test(l))
    expect(lines(null)).toEqual([])
    expect(lines(loaded([]))).toEqual([
      'gpu-report: trends: 2 change point(s) (1 regression(s)) in 4 headline series of /h.sqlite',
    ])
    expect(lines(loaded([{ metric: 'wall/1 GPU', recordId: 'r', host: 'h', gpuModel: 'g' }]))[1]).toBe(
      'gpu-report: Regression brought to light by the newest run in 1 series: wall/1 GPU of r on h / g: +12.3% in aaaaaaa..bbbbbbb (change point confirmed).',
    )
    expect(lines(loaded([], [{ metric: 'energy/1 GPU', recordId: 'r', host: 'h', gpuModel: 'g' }]))[1]).toBe(
      'gpu-report: No regression brought to light by the newest run. Suspected, not yet confirmed by a second run, in 1 series: energy/1 GPU of r on h / g: +20.0% in bbbbbbb..ccccccc (newest run against the last stable window, this run alone).',
    )
    expect(lines({ state: 'unavailable', file: '/h', reason: 'no history database at /h' })).toEqual([
      'gpu-report: History not used, no trends: no history database at /h',
    ])
  })
})

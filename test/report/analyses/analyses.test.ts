// Analyses over the committed demo run (real reference-pipeline runs, scripted GPU readings) and small edits of it.
import { describe, expect, test } from 'vitest'
import { quantile, toSorted } from '../../../src/measure/index.ts'
import type { SampleRecord } from '../../../src/monitor/records.ts'
import { analyzeBottlenecks } from '../../../src/report/analyses/bottleneck.ts'
import { analyzePerf02 } from '../../../src/report/analyses/perf02.ts'
import { analyzeRegression } from '../../../src/report/analyses/regression.ts'
import { analyzeScaling } from '../../../src/report/analyses/scaling.ts'
import { suiteLine, worstVerdict } from '../../../src/report/analyses/suites.ts'
import type { ResultRecord } from '../../../src/results/schema/index.ts'
import { loadDemo } from '../support/demo.ts'

const demo = await loadDemo()
const scaling = demo.records.find((r) => r.id === 'scaling-reference') as ResultRecord

describe('bottleneck', () => {
  test('stages are ranked by time share and the shares add up to at most the wall time', () => {
    for (const g of analyzeBottlenecks(demo.records).groups) {
      const shares = g.stages.map((s) => s.share)
      expect(shares).toEqual([...shares].sort((a, b) => b - a))
      expect(shares.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1.0001)
    }
  })

  test('the scripted second GPU (80% load) is flagged as imbalance with its recommendation', () => {
    const twoGpu = analyzeBottlenecks(demo.records).groups.find((g) => g.gpuCount === 2)
    expect(twoGpu?.flags.some((f) => f.rule === 'gpu-imbalance' && f.stage === 'ESM-2 Feature Extraction')).toBe(true)
  })

  test('failed and skipped records contribute no runs', () => {
    const failed = { ...scaling, id: 'x', state: 'failed' as const }
    expect(analyzeBottlenecks([failed]).groups).toEqual([])
  })
})

describe('perf02', () => {
  test('one row per GPU stage and requested GPU; p5 from the series; verdict from the mean vs the threshold', () => {
    const report = analyzePerf02(demo.records, demo.series)
    expect(report.rows.map((r) => `${r.group}/${r.gpu}`)).toEqual([
      '1 GPU/0',
      '1 GPU/0',
      '2 GPUs/0',
      '2 GPUs/1',
      '2 GPUs/0',
      '2 GPUs/1',
    ])
    for (const r of report.rows) {
      expect(r.utilP5Pct).not.toBeNull()
      expect(r.utilP5Pct as number).toBeLessThanOrEqual(r.utilP50Pct as number)
      expect(r.verdict).toBe((r.utilMeanPct as number) >= 80 ? 'pass' : 'fail')
    }
  })

  test('a monitor log that several runs of a group name is pooled once', () => {
    const [path, samples] = [...demo.series].find(([p]) => p.includes('1-gpu')) as [string, SampleRecord[]]
    const shared = structuredClone(scaling)
    for (const run of shared.runs) if (run.gpu) run.gpu.logPath = path
    const rows = analyzePerf02([shared], demo.series).rows.filter((r) => r.group === '1 GPU')
    expect(rows.length).toBeGreaterThan(0)
    for (const r of rows) {
      const util = samples.flatMap((s) =>
        s.stage === r.stage && s.gpu === r.gpu && s.utilPct !== null ? [s.utilPct] : [],
      )
      expect(r.utilP5Pct).toBe(quantile(toSorted(util), 0.05))
    }
  })

  test('without series the p5 is null, never invented', () => {
    expect(analyzePerf02(demo.records, new Map()).rows.every((r) => r.utilP5Pct === null)).toBe(true)
  })

  test('busy "utilization" with low SM utilization gets a note', () => {
    const row = analyzePerf02(demo.records, demo.series).rows[0]
    expect(row?.note).toMatch(/SM utilization/)
  })
})

describe('scaling', () => {
  test('total curve: 1 GPU is the reference, 2 GPUs carries a speedup with a CI and a band verdict', () => {
    const total = analyzeScaling(demo.records).curves.find((c) => c.scope === 'total')
    expect(total?.points.map((p) => p.gpuCount)).toEqual([1, 2])
    const two = total?.points[1]
    expect(two?.speedupCi?.low).toBeLessThanOrEqual(two?.speedup as number)
    expect(['pass', 'fail', 'flag', 'inconclusive']).toContain(two?.verdict)
  })
})

describe('regression', () => {
  test('a run compared with itself slowed by 30% is regressed on wall time', () => {
    const slow = structuredClone(scaling)
    slow.runs = [...slow.runs, ...structuredClone(slow.runs).map((r, i) => ({ ...r, label: `${r.label}b${i}` }))]
    for (const r of slow.runs) r.run.wallMs *= 1.3
    const base = structuredClone(scaling)
    base.runs = [...base.runs, ...structuredClone(base.runs).map((r, i) => ({ ...r, label: `${r.label}b${i}` }))]
    // 6 runs a side per setup: the group key drops the repeat suffix only, so relabel to keep `1 GPU` / `2 GPUs`
    for (const rec of [slow, base]) for (const r of rec.runs) r.label = r.label.replace(/ #\d+b\d+$/, ' #9')
    const report = analyzeRegression([slow], [base], '/baseline')
    // the 1-GPU runs are tight (11.1-13.1 s); the 2-GPU ones spread 18.7-27.3 s, too wide to call at 6 runs a side
    const wall = report.comparisons.find((c) => c.metric === 'wall time' && c.group === '1 GPU')
    expect(wall?.verdict).toBe('regressed')
    expect(wall?.ratio?.estimate).toBeCloseTo(1.3, 6)
  })

  test('groups on one side only are listed as unmatched', () => {
    const report = analyzeRegression([scaling], [], '/baseline')
    expect(report.unmatched.map((u) => u.group)).toEqual(['1 GPU', '2 GPUs'])
  })
})

describe('suite lines', () => {
  test('the worst verdict wins and gives the key figure', () => {
    expect(worstVerdict(scaling.verdicts)?.verdict).toBe('fail')
    expect(suiteLine(scaling).keyFigure).toMatch(/^Speedup, 2 GPUs over 1/)
  })

  test('a skipped record says why', () => {
    const skipped = demo.records.find((r) => r.state === 'skipped') as ResultRecord
    expect(suiteLine(skipped)).toMatchObject({
      verdict: 'skipped',
      keyFigure: null,
      reason: expect.stringContaining('GPU'),
    })
  })
})

// The regression gate when this run's record failed: the baseline's groups of that record cannot be compared, which
// is an error that fails --fail-on-regression, not a group "only in the baseline" that lets the gate pass.
import { describe, expect, test } from 'vitest'
import { buildReport } from '../../../src/report/analyses/build.ts'
import { analyzeRegression, regressionGateFails } from '../../../src/report/analyses/regression.ts'
import { regressionMarkdown } from '../../../src/report/render/markdown-sections.ts'
import { terminalSummary } from '../../../src/report/render/terminal.ts'
import type { ResultRecord } from '../../../src/results/schema/index.ts'
import { loadDemo } from '../support/demo.ts'

const demo = await loadDemo()
const scaling = demo.records.find((r) => r.id === 'scaling-reference') as ResultRecord
const REASON = "1 GPU warm-up 1 ended as failed: exit code 1: ImportError: cannot import name '_aligncore'"
const broken: ResultRecord = { ...scaling, state: 'failed', reason: REASON }

describe('regression against a baseline when this run failed', () => {
  test("the failed record's baseline groups are errors with its reason, and the gate fails", () => {
    const report = analyzeRegression([broken], [scaling], '/baseline')
    expect(report.errors).toEqual([
      { recordId: 'scaling-reference', group: '1 GPU', reason: `record failed: ${REASON}` },
      { recordId: 'scaling-reference', group: '2 GPUs', reason: `record failed: ${REASON}` },
    ])
    expect([report.regressed, report.unmatched]).toEqual([0, []])
    expect(regressionGateFails(report)).toBe(true)
  })

  test('a baseline group with no record in this run stays unmatched, and alone does not fail the gate', () => {
    const report = analyzeRegression([], [scaling], '/baseline')
    expect(report.unmatched.map((u) => u.side)).toEqual(['baseline', 'baseline'])
    expect(regressionGateFails(report)).toBe(false)
  })

  test('the terminal summary names each comparison the failure prevented', () => {
    const report = buildReport({
      ...demo,
      records: [broken],
      baseline: { dir: '/baseline', records: [scaling], invalid: [] },
    })
    expect(terminalSummary(report, 'reports', [])).toContain(
      `gpu-report: ERROR scaling-reference/1 GPU: not compared with the baseline, record failed: ${REASON}`,
    )
  })
})

describe('the regression section', () => {
  test('nothing in common with the baseline reads as no verdict, never as "0 regressed"', () => {
    const text = regressionMarkdown(analyzeRegression([scaling], [], '/baseline'))
    expect(text).toMatch(
      /^Baseline \/baseline, threshold 10%: nothing compared \(no run group in common with this run\): no regression verdict\./,
    )
    expect(text).not.toContain('0 regressed')
  })

  test('with comparisons it counts them', () => {
    expect(regressionMarkdown(analyzeRegression([scaling], [scaling], '/baseline'))).toMatch(
      /: 0 regressed of \d+ compared\./,
    )
  })
})

// The settings study in summary.md and capacity.md: one section after the capacity answer, the analysis's rows laid
// out as a markdown table (escaped), one line where a study has no table, nothing without a study record.
import { describe, expect, test } from 'vitest'
import { sectionMarkdown, summaryMarkdown } from '../../../src/report/render/markdown.ts'
import { studyMarkdown } from '../../../src/report/render/study-markdown.ts'
import { capacityRecord, H200_1GPU, reportOf } from '../support/capacity.ts'
import { BEST, OUTPUTS_DIFFER, studyRecord, withStats } from '../support/study.ts'

const h200 = await capacityRecord(H200_1GPU)
const study = studyRecord()

describe('summary.md', () => {
  const summary = summaryMarkdown(reportOf([h200, study]))

  test('a "Settings study" section right after the capacity answer, before the suites', () => {
    const [answer, section, suites] = ['## The capacity answer', '## Settings study', '## Suites'].map((h) =>
      summary.indexOf(h),
    ) as [number, number, number]
    expect(answer).toBeGreaterThanOrEqual(0)
    expect(section).toBeGreaterThan(answer)
    expect(suites).toBeGreaterThan(section)
  })

  test('the status and sentence first, then one table: setting, 6 M per GPU count, 2-vs-1, outputs, verdicts', () => {
    const section = summary.slice(summary.indexOf('## Settings study'), summary.indexOf('## Suites'))
    expect(section).toContain('### settings study of --dnabert-batch-size --cuda-streams on 2 GPUs\n')
    expect(section).toContain(
      `**FINAL**: of 4 settings screened on 2 GPUs, the best with the default's outputs is ${BEST}`,
    )
    expect(section).toContain('#### Settings against the default at 6,000,000 sequences')
    expect(section).toContain(
      "| setting | options added | hours at 6 M on 1 GPU \\[interval\\], PERF-01 | hours at 6 M on 2 GPUs \\[interval\\], PERF-01 | 2 GPUs against 1 at 6 M \\(speedup, x\\) \\[interval\\], threshold | outputs the default's \\(consensus labels\\) | verdicts against the default |",
    )
    expect(section).toContain(
      `| ${BEST} \\(best\\) | --dnabert-batch-size 2048 | 14.00 h \\[12.10, 16.20\\] FAIL | 7.40 h \\[6.50, 8.30\\] PASS | 1.89x \\[1.70, 2.10\\] against 1.9x: UNDECIDED | yes: labels agree 100.0% \\(1,000 of 1,000 IDs in prediction\\_results\\_highestscore.csv\\); scores max \\|diff\\| 0.0042, mean 0.0021, 50.0% of 2,000 over 0.001 \\(at 4,000 records\\) | flips 1: Does 6 M finish within 10 h on 2 GPUs?: from FAIL to PASS |`,
    )
    expect(section).toMatch(
      new RegExp(`\\| ${OUTPUTS_DIFFER} \\| .* \\| NO: labels agree 97\\.2%, 1\\.8 points under 99% `),
    )
    expect(section).toContain('- grid: --dnabert-batch-size 512, 2048, 4096; --cuda-streams 2')
  })

  test('no study record: no section', () => {
    expect(summaryMarkdown(reportOf([h200]))).not.toContain('Settings study')
  })

  test('a partial study reads PROVISIONAL with its count of runs', () => {
    const partial = studyRecord({ state: 'partial', reason: 'interrupted', kept: { runs: 12, planned: 30 } })
    const text = summaryMarkdown(reportOf([partial]))
    expect(text).toContain('**PROVISIONAL \\(12 of 30 runs\\)**: of 4 settings')
    expect(text).toContain('7.40 h \\[6.50, 8.30\\] PROVISIONAL PASS')
  })

  test('damaged stats: one bold line naming the record and the field, and the rest of the summary still there', () => {
    const damaged = withStats(study, (s) => ({ ...s, rows: 'lost' }))
    const text = summaryMarkdown(reportOf([h200, damaged]))
    const section = text.slice(text.indexOf('## Settings study'), text.indexOf('## Suites'))
    expect(section).toMatch(
      /\n\*\*study record 'study-2-GPUs-dnabert-batch-size-cuda-streams' .*: damaged stats, no table: stats\.rows: [^\n]*\*\*\n/,
    )
    expect(section).not.toContain('| setting |')
    expect(text).toContain('## What the verdicts mean')
  })
})

describe('capacity.md', () => {
  test("the settings study after every capacity record's answer and evidence", () => {
    const text = sectionMarkdown(reportOf([h200, study]), 'capacity')
    const section = text.indexOf('## Settings study')
    expect(section).toBeGreaterThan(text.indexOf('#### Wall time as fixed + per sequence'))
    expect(text.slice(section)).toContain('#### Settings against the default at 6,000,000 sequences')
  })

  test('no study record: nothing added', () => {
    expect(sectionMarkdown(reportOf([h200]), 'capacity')).not.toContain('Settings study')
    expect(studyMarkdown({ entries: [] })).toBe('')
  })
})

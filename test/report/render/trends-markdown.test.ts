// summary.md's trends section: the change-point table and the newest commit's judgement, over a real SQLite history.
import { describe, expect, test } from 'vitest'
import { buildReport } from '../../../src/report/analyses/build.ts'
import { summaryMarkdown } from '../../../src/report/render/markdown.ts'
import { trendsMarkdown } from '../../../src/report/render/trends-markdown.ts'
import { syntheticCommit } from '../../history/support/synthetic-history.ts'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'
import { loadDemo } from '../support/demo.ts'
import { loadedTrends, reportWithHistory, syntheticHeadlineHistory } from '../support/history.ts'

const root = tempDirUntilFileEnd('trends-markdown-')
const short = (i: number) => syntheticCommit(i).slice(0, 7)
// 24 runs; the last four at one commit (20), where wall time steps up by half: a regression at the newest commit.
const file = syntheticHeadlineHistory(root, {
  names: ['wall/1 GPU', 'energy/1 GPU'],
  runs: 24,
  commitOfRun: (run) => Math.min(run, 20),
  steps: [
    { metrics: ['wall/1 GPU'], atRun: 20, factor: 1.5 },
    { metrics: ['energy/1 GPU'], atRun: 8, factor: 0.7 },
  ],
})
const { report } = await reportWithHistory(file)
const trends = loadedTrends(report)
const md = trendsMarkdown(trends)

describe('trends in summary.md', () => {
  test('one line on what the history holds and what changed', () => {
    expect(md.split('\n')[0]).toBe(
      `History ${file}: 2 headline series with 2 or more points over 24 runs \\(newest: run synthetic-000023, commit ${short(20)}\\); 2 change point\\(s\\): 1 regression\\(s\\), 1 improvement\\(s\\).`,
    )
  })

  test('a change-point table row per change, regressions first, with levels, CIs and the commit range', () => {
    const rows = md.split('\n').filter((l) => /^\| (regression|improvement) \|/.test(l))
    expect(rows).toHaveLength(2)
    expect(rows[0]).toMatch(
      new RegExp(
        `^\\| regression \\| wall/1 GPU \\| synthetic \\| synthetic-host / NVIDIA H200 \\| ${short(19)}\\.\\.${short(20)} \\| synthetic-000019\\.\\.synthetic-000020 \\| 1\\d{3} ms \\\\\\[.+\\\\\\] \\\\\\(n 20\\\\\\) \\| 1[45]\\d\\d ms .* \\| \\\\\\+(49|5\\d)\\.\\d% \\|`,
      ),
    )
    expect(rows[1]).toMatch(/^\| improvement \| energy\/1 GPU \| .* \| -[23]\d\.\d% \|/)
  })

  test('the newest commit against the last stable window, and the regression at it', () => {
    expect(md).toContain(
      `Newest commit ${short(20)} \\(run synthetic-000023\\) against the last stable window: 1 unchanged, 1 regressed.`,
    )
    // The series never changed before the newest commit: its window is the whole history before it.
    expect(md).toMatch(
      /\| REGRESSED \| wall\/1 GPU \| synthetic \| synthetic-host \/ NVIDIA H200 \| history start \| ratio 1\.[45]/,
    )
    expect(md).toContain(
      '**Regression at the newest commit in 1 series: wall/1 GPU of synthetic on synthetic-host / NVIDIA H200 \\(change-point, newest-vs-window\\).**',
    )
  })

  test('summary.md holds the section; without a history it says so in one line', async () => {
    expect(summaryMarkdown(report)).toContain(`## Trends over the history\n\n${md}`)
    const without = summaryMarkdown(buildReport(await loadDemo()))
    expect(without).toContain(
      '## Trends over the history\n\n_No history database given \\(report --history FILE; the reporter reads $VIRNUCPRO\\_BENCH\\_HISTORY\\): no trends._\n',
    )
  })

  test('a history that could not be used: one bold line with why', () => {
    expect(trendsMarkdown({ state: 'unavailable', file: '/h', reason: 'history database /h is locked' })).toBe(
      '> **History not used, no trends: history database /h is locked**\n',
    )
  })
})

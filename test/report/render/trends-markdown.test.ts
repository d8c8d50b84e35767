// summary.md's trends section: the change-point table and the newest run's judgement, over a real SQLite history.
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
// 24 nights, one commit each: 1-GPU wall time steps up by half at night 21 (tonight's run, the third at the new level,
// confirms it), 2-GPU wall time only tonight (its runs against the window's), energy improves at night 8.
const file = syntheticHeadlineHistory(root, {
  names: ['wall/1 GPU', 'wall/2 GPUs', 'energy/1 GPU'],
  runs: 24,
  steps: [
    { metrics: ['wall/1 GPU'], atRun: 21, factor: 1.5 },
    { metrics: ['wall/2 GPUs'], atRun: 23, factor: 1.5 },
    { metrics: ['energy/1 GPU'], atRun: 8, factor: 0.7 },
  ],
})
const { report } = await reportWithHistory(file)
const trends = loadedTrends(report)
const md = trendsMarkdown(trends)

describe('trends in summary.md', () => {
  test('one line on what the history holds and what changed', () => {
    expect(md.split('\n')[0]).toBe(
      `History ${file}: 3 headline series with 2 or more points over 24 runs \\(newest: run synthetic-000023, commit ${short(23)}\\); 2 change point\\(s\\): 1 regression\\(s\\), 1 improvement\\(s\\).`,
    )
  })

  test('a change-point table row per change, regressions first, with levels, CIs and the commit range', () => {
    const rows = md.split('\n').filter((l) => /^\| (regression|improvement) \|/.test(l))
    expect(rows).toHaveLength(2)
    expect(rows[0]).toMatch(
      new RegExp(
        `^\\| regression \\| wall/1 GPU \\| synthetic \\| synthetic-host / NVIDIA H200 \\| ${short(20)}\\.\\.${short(21)} \\| synthetic-000020\\.\\.synthetic-000021 \\| 1\\d{3} ms \\\\\\[.+\\\\\\] \\\\\\(n 21\\\\\\) \\| 1[45]\\d\\d ms .* \\| \\\\\\+(49|5\\d)\\.\\d% \\|`,
      ),
    )
    expect(rows[1]).toMatch(/^\| improvement \| energy\/1 GPU \| .* \| -[23]\d\.\d% \|/)
  })

  test('the newest run against the last stable window, what the gate fails on and what it suspects, with commit ranges', () => {
    expect(md).toContain(
      `Newest run synthetic-000023 \\(commit ${short(23)}\\) against the last stable window: 2 unchanged, 1 regressed.`,
    )
    // The 2-GPU series never changed: its window is the history before tonight (less the two unconfirmed nights).
    expect(md).toMatch(
      new RegExp(
        `\\| REGRESSED \\| wall/2 GPUs \\| synthetic \\| synthetic-host / NVIDIA H200 \\| history start \\| ${short(22)}\\.\\.${short(23)} \\| runs: ratio 1\\.[45]`,
      ),
    )
    expect(md).toMatch(
      new RegExp(
        `\\*\\*Regression brought to light by the newest run in 1 series: wall/1 GPU of synthetic on synthetic-host / NVIDIA H200: \\\\\\+(49|5\\d)\\.\\d% in ${short(20)}\\.\\.${short(21)} \\\\\\(change point confirmed\\\\\\)\\. Suspected, not yet confirmed by a second run, in 1 series: wall/2 GPUs of synthetic on synthetic-host / NVIDIA H200: \\\\\\+(4\\d|5\\d)\\.\\d% in ${short(22)}\\.\\.${short(23)} \\\\\\(newest run against the last stable window, this run alone\\\\\\)\\.\\*\\*`,
      ),
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

// The settings study in index.html: after the capacity answer, the analysis's rows as an HTML table, every string
// from the record escaped; nothing without a study record.
import { describe, expect, test } from 'vitest'
import { renderHtml } from '../../../src/report/render/html.ts'
import { studySection } from '../../../src/report/render/study-html.ts'
import type { ResultRecord } from '../../../src/results/schema/index.ts'
import { capacityRecord, H200_1GPU, reportOf } from '../support/capacity.ts'
import { BEST, studyRecord, withStats } from '../support/study.ts'

const render = (records: ResultRecord[]) => renderHtml(reportOf(records), records, new Map())

describe('index.html settings study', () => {
  test('after the capacity answer and before the suites; the same rows as summary.md', async () => {
    const html = await render([await capacityRecord(H200_1GPU), studyRecord()])
    const [capacity, study, suites] = ['<h2>Capacity', '<h2>Settings study</h2>', '<h2>Suites</h2>'].map((h) =>
      html.indexOf(h),
    ) as [number, number, number]
    expect(capacity).toBeGreaterThanOrEqual(0)
    expect(study).toBeGreaterThan(capacity)
    expect(suites).toBeGreaterThan(study)
    const section = html.slice(study, suites)
    expect(section).toContain('<p class="answer"><strong>FINAL</strong>: of 4 settings screened on 2 GPUs')
    expect(section).toContain(
      `<tr><td>${BEST} (best)</td><td>--dnabert-batch-size 2048</td><td>14.00 h [12.10, 16.20] FAIL</td><td>7.40 h [6.50, 8.30] PASS</td>`,
    )
    expect(section.match(/<tr>/g)).toHaveLength(1 + 5)
  })

  test('text from the record escaped: a setting named with markup', async () => {
    const record = withStats(studyRecord({ name: 'study <b>x</b>' }), (s) => {
      const best = s.rows.find((r) => r.label === BEST)!
      best.label = '<img src=x>'
      s.best = best.label
    })
    const html = await render([record])
    expect(html).toContain('&lt;img src=x&gt; (best)')
    expect(html).toContain('<h3>study &lt;b&gt;x&lt;/b&gt;</h3>')
    expect(html).not.toContain('<img')
    expect(html).not.toContain('<b>x')
  })

  test('a damaged study: one line naming the record; no study: no section', async () => {
    const damaged = withStats(studyRecord(), (s) => ({ ...s, production: 'six million' }))
    expect(studySection(reportOf([damaged]).study)).toMatch(
      /<p class="note">study record &#39;study-2-GPUs-dnabert-batch-size-cuda-streams&#39; .*: damaged stats, no table: stats\.production: [^<]*<\/p>$/,
    )
    expect(await render([await capacityRecord(H200_1GPU)])).not.toContain('Settings study')
  })
})

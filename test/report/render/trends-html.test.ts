// index.html's trends section: its three states, escaping, and the page as a real browser (Debian chromium) builds it.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { buildReport } from '../../../src/report/analyses/build.ts'
import { renderHtml } from '../../../src/report/render/html.ts'
import { TRENDS_HEADING, trendsSection } from '../../../src/report/render/trends-html.ts'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'
import { dumpDom, skipWithoutChromium } from '../support/chromium.ts'
import { DEMO_DIR, loadDemo } from '../support/demo.ts'
import { loadedTrends, reportWithHistory, syntheticHeadlineHistory } from '../support/history.ts'

const root = tempDirUntilFileEnd('trends-html-')
const file = syntheticHeadlineHistory(root, {
  names: ['wall/1 GPU', 'energy/1 GPU', 'capacity/1/rate/ESM-2 Feature Extraction'],
  hosts: ['gpu-a', 'gpu-b'],
  runs: 40,
  commitOfRun: (run) => Math.floor(run / 2),
  steps: [
    { metrics: ['wall/1 GPU'], atRun: 24, factor: 1.25 },
    { metrics: ['energy/1 GPU'], atRun: 12, factor: 0.8 },
  ],
})
const { input, report } = await reportWithHistory(file, DEMO_DIR)
const trends = loadedTrends(report)
const sectionOf = (html: string) =>
  html.slice(html.indexOf(TRENDS_HEADING), html.indexOf('<h2>', html.indexOf(TRENDS_HEADING) + 1))

describe('trends section', () => {
  test('no history: the heading and one line saying how to get trends', async () => {
    const html = await trendsSection(buildReport(await loadDemo()).trends)
    expect(html).toBe(
      `${TRENDS_HEADING}<p>No history database given (report --history FILE; the reporter reads $VIRNUCPRO_BENCH_HISTORY): no trends.</p>`,
    )
  })

  test('a history that could not be used: a note with why, naming the file', async () => {
    const html = await trendsSection({
      state: 'unavailable',
      file: '/h.sqlite',
      reason: 'no history database at /h.sqlite',
    })
    expect(html).toContain('<p class="note">History not used, no trends: no history database at /h.sqlite</p>')
  })

  test('a chart per headline metric, changed first; a change-point table row per change', async () => {
    const html = await trendsSection(trends)
    expect(html.match(/<h3>[^<]*<\/h3><p>[^<]*<\/p><div class="chart trend"><svg/g)).toHaveLength(3)
    expect([...html.matchAll(/<h3>([^<]*)<\/h3><p>/g)].map((m) => m[1])).toEqual([
      'wall/1 GPU',
      'energy/1 GPU',
      'capacity/1/rate/ESM-2 Feature Extraction',
    ])
    const table = html.slice(html.indexOf('<h3>Change points</h3>'))
    expect(table.match(/<tr>/g)).toHaveLength(1 + trends.changes.length)
    expect(table.match(/<span class="fail">regression<\/span>/g)).toHaveLength(2)
    expect(table.match(/<span class="pass">improvement<\/span>/g)).toHaveLength(2)
  })

  test('host names, GPU models and record ids from the history are escaped', async () => {
    const hostile = syntheticHeadlineHistory(root, {
      names: ['wall/<b>x</b>'],
      hosts: ['<script>alert(1)</script>'],
      gpuModel: 'A&B',
      steps: [{ metrics: ['wall/<b>x</b>'], atRun: 15, factor: 2 }],
    })
    const html = await trendsSection(loadedTrends((await reportWithHistory(hostile)).report))
    expect(html).not.toMatch(/<script|<b>/)
    expect(html).toContain('<h3>wall/&lt;b&gt;x&lt;/b&gt;</h3>')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; / A&amp;B')
  })
})

test('index.html in chromium: the trends section holds each chart as SVG, with one dashed rule per change point', async (context) => {
  skipWithoutChromium(context)
  const page = join(root, 'index.html')
  await writeFile(page, await renderHtml(report, input.records, input.series))
  const section = sectionOf(await dumpDom(page))
  expect(section.match(/<svg[\s>]/g)).toHaveLength(trends.charts.length)
  const marks = trends.charts.reduce((n, c) => n + c.marks.length, 0)
  expect(marks).toBe(trends.changes.length)
  expect(section.match(/<line [^>]*stroke-dasharray="6,3"[^>]*>/g)).toHaveLength(marks)
  expect(section.match(/<line [^>]*stroke="#cf222e"[^>]*stroke-dasharray/g)).toHaveLength(2)
  expect(section.match(/<line [^>]*stroke="#1a7f37"[^>]*stroke-dasharray/g)).toHaveLength(2)
  // Each rule's label: the commit range and the relative change.
  for (const c of trends.changes)
    expect(section).toMatch(new RegExp(`>${c.fromKey.slice(0, 7)}\\.\\.${c.toKey.slice(0, 7)} [+-]\\d+\\.\\d%</text>`))
}, 60_000)

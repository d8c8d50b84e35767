// index.html's capacity section, rendered and then parsed by a real browser (Debian's chromium).
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { renderHtml } from '../../../src/report/render/html.ts'
import type { ResultRecord } from '../../../src/results/schema/index.ts'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'
import { CPU_1_2_WORKERS, capacityRecord, H200_1GPU, reportOf } from '../support/capacity.ts'
import { dumpDom, hasChromium, skipWithoutChromium } from '../support/chromium.ts'
import { loadDemo } from '../support/demo.ts'

const h200 = await capacityRecord(H200_1GPU)
const cpu = { ...(await capacityRecord(CPU_1_2_WORKERS)), name: 'capacity <b>CPU</b>, 1 and 2 workers' }

async function render(records: ResultRecord[]): Promise<string> {
  return renderHtml(reportOf(records), records, new Map())
}

const sectionOf = (html: string) => {
  const start = html.indexOf('<h2>Capacity')
  return html.slice(start, html.indexOf('<h2>', start + 1))
}

/** The y of an SVG element's `translate(x,y)`. */
const translateY = (element: string) => Number(/translate\([^,]+,([^)]+)\)/.exec(element)?.[1])

let dom: string
beforeAll(async () => {
  if (!hasChromium) return // the tests that read it skip, saying why
  const file = join(tempDirUntilFileEnd('capacity-html-'), 'index.html')
  await writeFile(file, await render([h200, cpu]))
  dom = await dumpDom(file)
}, 120_000)

describe('index.html capacity section, parsed by chromium', () => {
  beforeEach(skipWithoutChromium)

  test('one chart per capacity record, one line per configuration (GPU count)', () => {
    const section = sectionOf(dom)
    const svgs = section.split('<svg').slice(1)
    expect(svgs).toHaveLength(2)
    const lines = (svg: string) =>
      [
        ...svg.matchAll(/<path aria-label="[^"]*configuration: ([^;"]+)[^"]*"[^>]*aria-roledescription="line mark"/g),
      ].map((m) => m[1])
    expect(lines(svgs[0]!)).toEqual(['1 GPU'])
    expect(lines(svgs[1]!)).toEqual(['1 worker', '2 workers'])
  })

  test('each chart draws the PERF-01 limit as a labelled rule at the 10 h tick', () => {
    for (const svg of sectionOf(dom).split('<svg').slice(1)) {
      const rule = /<line aria-label="wall time \(log scale\): 10"[^>]*stroke="#cf222e"[^>]*>/.exec(svg)?.[0]
      const tick = /<text[^>]*>10 h<\/text>/.exec(svg)?.[0]
      expect(rule, 'the 10 h rule').toBeDefined()
      expect(tick, 'the 10 h axis label').toBeDefined()
      // The axis label's baseline sits a few pixels below its tick.
      expect(Math.abs(translateY(rule!) - translateY(tick!))).toBeLessThan(5)
      expect(svg).toContain('>PERF-01 limit 10 h</text>')
      expect(svg).toContain('>45,000 (typical)</text>')
    }
  })

  test('the break-even point is marked where it is finite (CPU record), with its label', () => {
    const [, cpuChart] = sectionOf(dom).split('<svg').slice(1)
    expect(cpuChart).toContain('>2 workers: break-even 291</text>')
  })

  test('one table per size with one row per configuration, verdicts coloured, record text escaped', () => {
    const section = sectionOf(dom)
    expect(section.match(/<h4>At 6,000,000 sequences \(production\)<\/h4>/g)).toHaveLength(2)
    expect(section).toContain('<h3>capacity &lt;b&gt;CPU&lt;/b&gt;, 1 and 2 workers</h3>')
    // The answer first (issue 36: deliberately changed from a line per size): status marked, then the sentence; issue
    // 44: how the measurement stopped, each undecided verdict's reason under it, the level with why it is 95%.
    expect(section).toContain(
      '<p class="answer"><strong>UNCHECKED (no held-out run; judged once, no design: 1 of 4 verdicts undecided)</strong>: 6 M sequences take 5.6 h [5.3, 5.8] on 1 GPU (within 10 h: PASS);',
    )
    expect(section).toMatch(
      /<\/p>\n<ul><li>UNCHECKED, 1 GPU: no held-out run: .*<\/li><li>PERF-02 DNABERT-S Feature Extraction, 1 GPU, at 6,000,000 sequences: UNDECIDED: /,
    )
    expect(section).toContain('<th>wall time (h) [95% CI, judged once]</th>')
    expect(section).toMatch(/<td>2 workers vs 1 worker<\/td><td>291 sequences \[91, never\]<\/td>/)
    expect(section).toContain('<span class="fail">FAIL</span>')
    expect(section).not.toContain('<b>')
  })
})

test('a run without capacity records says so in the section', async () => {
  const demo = await loadDemo()
  expect(sectionOf(await render(demo.records))).toBe(
    '<h2>Capacity: verdicts at the size users run</h2><p>No capacity records.</p>\n',
  )
})

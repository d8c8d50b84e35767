import { describe, expect, test } from 'vitest'
import { buildReport } from '../../../src/report/analyses/build.ts'
import { renderHtml } from '../../../src/report/render/html.ts'
import type { ResultRecord } from '../../../src/results/schema/index.ts'
import { loadDemo } from '../support/demo.ts'

const demo = await loadDemo()
const scaling = demo.records.find((r) => r.id === 'scaling-reference') as ResultRecord

describe('index.html tables', () => {
  test('a large run shows the first 500 bottleneck flags, escaped, and says how many more the JSON holds', async () => {
    // Records past the first have no monitor log paths, so no timelines: only the tables are in question here.
    const records = Array.from({ length: 60 }, (_, i) => ({
      ...scaling,
      kind: 'stage' as const,
      id: `<b>${i}</b>`,
      runs: scaling.runs.map((r) => ({ ...r, gpu: r.gpu ? { ...r.gpu, logPath: null } : null })),
    }))
    const report = buildReport({ ...demo, records, series: new Map() })
    const flags = report.bottleneck.groups.reduce((n, g) => n + g.flags.length, 0)
    expect(flags).toBeGreaterThan(500)
    const html = await renderHtml(report, records, new Map())
    const start = html.indexOf('<h2>Bottlenecks</h2>')
    const split = html.indexOf('<h3>GPU stages: fixed cost and steady state</h3>', start)
    const section = html.slice(start, split)
    expect(section.match(/<tr>/g)).toHaveLength(1 + 500)
    // Then each GPU stage of each group as fixed cost and steady state: 60 records x 2 setups x 2 GPU stages.
    const splitTable = html.slice(split, html.indexOf('<h2>', split))
    expect(splitTable.match(/<tr>/g)).toHaveLength(1 + 240)
    expect(section).toContain(`<p>${flags - 500} more rows in the JSON reports.</p>`)
    expect(section).toContain('&lt;b&gt;0&lt;/b&gt; / 1 GPU')
    expect(html).not.toContain('<b>')
  })
})

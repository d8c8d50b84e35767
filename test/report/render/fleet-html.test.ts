// index.html's fleet section, parsed by a real browser (Debian's chromium, as CI installs it), and the chart specs.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { buildReport } from '../../../src/report/analyses/build.ts'
import { hostsSpec, shardsSpec } from '../../../src/report/render/fleet-chart.ts'
import { renderHtml } from '../../../src/report/render/html.ts'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'
import { dumpDom, skipWithoutChromium } from '../support/chromium.ts'
import { loadFleet } from '../support/fleet.ts'

const input = await loadFleet()
// A host name with markup, as a hostile or careless node could report it: it must reach the page as text.
const hostile = structuredClone(input.records)
for (const r of hostile) if (r.provenance.host.hostname === 'node-02') r.provenance.host.hostname = '<b>node-02</b>'
const report = buildReport({ ...input, records: hostile })

interface Layer {
  data: { values: Record<string, unknown>[] }
  mark: { type: string; color?: string; filled?: boolean }
  encoding: Record<string, { field?: string } | undefined>
}
const layersOf = (spec: unknown) => (spec as { layer: Layer[] }).layer

describe('fleet charts', () => {
  test('hosts: a point and a CI rule per host, the GPU models as rules, the bad node ringed in red', () => {
    const layers = layersOf(hostsSpec(report.fleet!.comparison, 'cpu tiny, 20 seqs'))
    const points = layers.find((l) => l.mark.type === 'point' && l.mark.filled)!
    expect(points.data.values).toHaveLength(6)
    expect(points.encoding.y?.field).toBe('host')
    expect(points.encoding.x?.field).toBe('rate')
    const ring = layers.find((l) => l.mark.type === 'point' && l.mark.filled === false)!
    expect(ring.mark.color).toBe('#cf222e')
    expect(ring.data.values.map((v) => v.host)).toEqual(['node-04'])
    expect(layers[0]!.data.values.map((v) => v.model).sort()).toEqual([
      'NVIDIA A100-SXM4-80GB (fake)',
      'NVIDIA H200 (fake)',
    ])
  })

  test("shards: a bar per shard, the straggler in its own colour, the fleet's time as a rule", () => {
    const run = report.fleet!.shardRuns[0]!
    const layers = layersOf(shardsSpec(run))
    const bars = layers.find((l) => l.mark.type === 'bar')!
    expect(bars.data.values.map((v) => v.straggler)).toEqual(['shard', 'shard', 'shard', 'straggler'])
    const fleet = layers.find((l) => l.mark.type === 'rule' && l.mark.color === '#cf222e')!
    expect(fleet.data.values).toEqual([{ seconds: run.fleet!.wallMs.value / 1000, text: 'fleet time (slowest shard)' }])
  })
})

describe('index.html fleet section in chromium', () => {
  test('parses, sits between the suites and capacity, holds the charts, escapes what hosts report', async (context) => {
    skipWithoutChromium(context)
    const file = join(tempDirUntilFileEnd('fleet-html-'), 'index.html')
    const html = await renderHtml(report, hostile, new Map())
    expect(html).not.toContain('<b>node-02</b>')
    await writeFile(file, html)
    const dom = await dumpDom(file)
    const start = dom.indexOf('<h2>Fleet: hosts, GPU models and sharded runs</h2>')
    expect(start).toBeGreaterThan(dom.indexOf('<h2>Suites</h2>'))
    const section = dom.slice(start, dom.indexOf('<h2>Capacity'))
    // A chart per measurement several hosts ran (stage, shards of 4) and one per sharded run.
    expect(section.match(/<div class="chart"><svg/g)).toHaveLength(3)
    expect(section).toMatch(/<path [^>]*stroke="#cf222e"/)
    expect(section).toContain('&lt;b&gt;node-02&lt;/b&gt;')
    expect(section).toContain('<span class="flag">FLAG</span> (slower) slower than the fleet: ')
    expect(section).toMatch(/<p><strong>Straggler: shard 3 on shard-node-3 /)
    expect(dom).not.toMatch(/<script/i)
  }, 90_000)
})

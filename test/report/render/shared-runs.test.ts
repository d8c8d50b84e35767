// Reports over two records sharing runs (test/report/support/shared-runs.ts): every format lists each shared
// (group, stage, GPU) once and names both records.
import { describe, expect, test } from 'vitest'
import { buildReport } from '../../../src/report/analyses/build.ts'
import { renderReports } from '../../../src/report/write.ts'
import { loadDemo } from '../support/demo.ts'
import { sharedRunRecords } from '../support/shared-runs.ts'

const demo = await loadDemo()
const { scaling, stage } = sharedRunRecords(demo)
const input = { ...demo, records: [scaling, stage] }
const files = await renderReports(buildReport(input), input)
const file = (name: string) => files.get(name) as string
const count = (text: string, part: string) => text.split(part).length - 1

describe('reports of records sharing runs', () => {
  test('perf02.md and bottleneck.md: one row, one section per shared group, naming both records', () => {
    const perf02 = file('perf02.md')
    expect(count(perf02, '| scaling-reference, stage-1-GPU | 1 GPU | ESM-2 Feature Extraction | 0 |')).toBe(1)
    expect(count(perf02, '| 1 GPU | ESM-2 Feature Extraction | 0 |')).toBe(1)
    const bottleneck = file('bottleneck.md')
    expect(count(bottleneck, '### scaling-reference, stage-1-GPU: 1 GPU (')).toBe(1)
    expect(count(bottleneck, ': 1 GPU (')).toBe(1)
    expect(count(file('memory.md'), '| 1 GPU | 0 |')).toBe(1)
  })

  test('index.html: the PERF-02 row and the bottleneck flags of the shared group appear once, naming both', () => {
    const html = file('index.html')
    const perf02 = html.slice(html.indexOf('<h2>PERF-02'), html.indexOf('<h2>Bottlenecks</h2>'))
    expect(
      count(perf02, '<td>scaling-reference, stage-1-GPU</td><td>1 GPU</td><td>ESM-2 Feature Extraction</td>'),
    ).toBe(1)
    expect(count(perf02, '<td>1 GPU</td><td>ESM-2 Feature Extraction</td>')).toBe(1)
  })

  test('perf02.json, bottleneck.json and summary.json carry recordIds', () => {
    const rows = JSON.parse(file('perf02.json')).rows.filter((r: { group: string }) => r.group === '1 GPU')
    expect(rows.map((r: { recordIds: string[] }) => r.recordIds)).toEqual([
      ['scaling-reference', 'stage-1-GPU'],
      ['scaling-reference', 'stage-1-GPU'],
    ])
    const groups = JSON.parse(file('bottleneck.json')).groups.map((g: { recordIds: string[] }) => g.recordIds)
    expect(groups).toEqual([['scaling-reference', 'stage-1-GPU'], ['scaling-reference']])
    const memory = JSON.parse(file('summary.json')).memory.rows.filter((r: { group: string }) => r.group === '1 GPU')
    expect(memory.map((r: { recordIds: string[] }) => r.recordIds)).toEqual([['scaling-reference', 'stage-1-GPU']])
  })

  test('CI formats keep every record’s figure names, as when each record had its own group', () => {
    const names = Object.keys(JSON.parse(file('bench.bmf.json')))
    expect(names).toContain('perf02/scaling-reference/1 GPU/ESM-2 Feature Extraction/gpu0')
    expect(names).toContain('perf02/stage-1-GPU/1 GPU/ESM-2 Feature Extraction/gpu0')
    expect(names).toContain('stage-1-GPU/1 GPU/total')
  })
})

import { describe, expect, test } from 'vitest'
import { sectionMarkdown } from '../../../src/report/render/markdown.ts'
import { capacityRecord, H200_1GPU, reportOf } from '../support/capacity.ts'
import { loadDemo } from '../support/demo.ts'

const h200 = await capacityRecord(H200_1GPU)

/** The stage table rows of bottleneck.md's group `group`. */
function rowsOf(md: string, group: string): string[] {
  const start = md.indexOf(`: ${group} (`)
  return md
    .slice(start, md.indexOf('Outside every stage', start))
    .split('\n')
    .filter((l) => l.startsWith('| '))
}

describe('bottleneck.md: GPU stages as fixed cost and steady state', () => {
  test('start-up, the rest, steady utilization and the capacity size model; the model named under the table', () => {
    const md = sectionMarkdown(reportOf([h200]), 'bottleneck')
    const [head, , ...rows] = rowsOf(md, '1 GPU, 1,000 seqs')
    expect(head).toContain("fixed: start-up before the GPU's first work | steady state | steady util | size model")
    expect(rows.find((r) => r.startsWith('| DNABERT-S'))).toMatch(
      /\| yes \| 20\.0% \| 17\.6% \| 1\.04 s \| 378 ms \| 46\.0% \| 982 ms \\\+ 0\.496 ms\/sequence \|$/,
    )
    expect(rows.find((r) => r.startsWith('| Six-Frame'))).toMatch(/\| {2}\| {2}\| {2}\| {2}\|$/)
    expect(md).toContain('Size model parts from capacity record capacity-1-GPU \\(1 GPU\\).')
  })

  test('older records without start-up or steady state show n/a, never a number', async () => {
    const md = sectionMarkdown(reportOf((await loadDemo()).records), 'bottleneck')
    expect(rowsOf(md, '1 GPU').find((r) => r.startsWith('| ESM-2'))).toMatch(/\| n\/a \| n\/a \| n\/a \| n\/a \|$/)
    expect(md).not.toContain('Size model parts')
  })
})

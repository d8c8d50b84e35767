// The flagged stages' options in bottleneck.md, index.html and bottleneck.json: one block per stage, every string
// from the study record escaped, and bottleneck.json's `advice` held to its schema.
import { describe, expect, test } from 'vitest'
import { analyzeBottlenecks } from '../../../src/report/analyses/bottleneck.ts'
import { renderHtml } from '../../../src/report/render/html.ts'
import { BottleneckJsonSchema, bottleneckJson } from '../../../src/report/render/json.ts'
import { adviceMarkdown, bottleneckMarkdown } from '../../../src/report/render/markdown-sections.ts'
import {
  DNABERT,
  flaggedStageRecord,
  row,
  STAGE_OPTIONS,
  screening,
  studyRecord,
  studyStats,
} from '../support/bottleneck-study.ts'
import { reportOf } from '../support/capacity.ts'

/** A study that varied DNABERT-S's budget (within the default's interval) and whose help text carries markup. */
function records() {
  const stats = studyStats(
    [row('dnabert-batch-size=1024', ['--dnabert-batch-size', '1024'], { screening: [screening(1, 1000, 61)] })],
    { '--dnabert-batch-size': [1024] },
    null,
    {
      stageOptions: [
        { stage: DNABERT, options: [{ flag: '--dnabert-batch-size', help: 'tokens <b>per</b> batch | DNABERT-S' }] },
        ...STAGE_OPTIONS.slice(1),
      ],
    },
  )
  return [flaggedStageRecord(), studyRecord('study-md', stats)]
}

describe('bottleneck.md', () => {
  test('a block per flagged stage after the groups: summary, then option | help | what the study measured', () => {
    const md = bottleneckMarkdown(analyzeBottlenecks(records()))
    const at = md.indexOf('### What to change in the flagged stages')
    expect(at).toBeGreaterThan(md.indexOf('### stage-2-GPUs'))
    const block = md.slice(at)
    expect(block).toContain(`**${DNABERT}**: No option of this stage that the study`)
    expect(block).toContain("| option | the target's help | what the settings study measured |")
    // What the record holds is escaped: its markup shows as text, a | in the help does not open a cell.
    expect(block).toContain(
      '| --dnabert-batch-size | tokens &lt;b&gt;per&lt;/b&gt; batch \\| DNABERT-S | changes nothing measurable at 1,000 records:',
    )
    expect(block).toContain('| --esm-batch-size | Token batch size for ESM-2 processing | not varied |')
  })

  test('nothing flagged, no block; no study, the summary alone (no table)', () => {
    expect(adviceMarkdown([])).toBe('')
    const md = adviceMarkdown(analyzeBottlenecks([flaggedStageRecord()]).advice)
    expect(md).toContain(`**${DNABERT}**: No settings study in these results`)
    expect(md).not.toContain('| option |')
  })
})

describe('index.html', () => {
  test('the same block, every string escaped', async () => {
    const recs = records()
    const html = await renderHtml(reportOf(recs), recs, new Map())
    const block = html.slice(html.indexOf('<h3>What to change in the flagged stages</h3>'))
    expect(block).toContain(`<p><strong>${DNABERT}</strong>: No option of this stage`)
    expect(block).toContain('<td>tokens &lt;b&gt;per&lt;/b&gt; batch | DNABERT-S</td>')
    expect(html).not.toContain('<b>per</b>')
  })
})

describe('bottleneck.json', () => {
  test('advice once per flagged stage, valid against the schema; rules still keyed once', () => {
    const report = reportOf(records())
    const json = JSON.parse(bottleneckJson(report))
    expect(BottleneckJsonSchema.safeParse(json).success).toBe(true)
    expect(json.advice).toEqual(report.bottleneck.advice)
    expect(json.advice.map((a: { stage: string }) => a.stage)).toEqual([DNABERT, 'ESM-2 Feature Extraction'])
    expect(Object.keys(json.recommendations)).toEqual(['time-share'])
  })

  test('a file written before advice existed still reads (advice optional)', () => {
    const json = JSON.parse(bottleneckJson(reportOf(records())))
    delete json.advice
    expect(BottleneckJsonSchema.safeParse(json).success).toBe(true)
  })
})

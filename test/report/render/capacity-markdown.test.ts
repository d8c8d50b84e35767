import { describe, expect, test } from 'vitest'
import { escapeMarkdown } from '../../../src/report/render/escape.ts'
import { sectionMarkdown, summaryMarkdown } from '../../../src/report/render/markdown.ts'
import { CPU_1_2_WORKERS, capacityRecord, H200_1GPU, reportOf } from '../support/capacity.ts'
import { loadDemo } from '../support/demo.ts'

const h200 = await capacityRecord(H200_1GPU)
const cpu = await capacityRecord(CPU_1_2_WORKERS)
const both = reportOf([h200, cpu])

/** The summary's capacity section, up to the next `## `. */
function capacitySection(text: string): string {
  const start = text.indexOf('## Capacity')
  return text.slice(start, text.indexOf('\n## ', start + 1))
}

describe('summary.md capacity section', () => {
  const summary = summaryMarkdown(both)
  const section = capacitySection(summary)

  // Layout changed deliberately (issue 36): the answer (status, sentence, its tables in hours) opens the summary, and
  // the capacity section holds the evidence, one unit per column (seconds measured, hours projected). Issue 44: the
  // status says how the measurement stopped, and each undecided verdict's reason is listed under the sentence.
  test("the summary opens with each record's answer: status and sentence, then hours per GPU count", () => {
    const top = summary.slice(0, summary.indexOf('## Suites'))
    expect(top).toContain(
      `**${escapeMarkdown('UNCHECKED (no held-out run; judged once, no design: 1 of 4 verdicts undecided)')}**${escapeMarkdown(': 6 M sequences take 5.6 h [5.3, 5.8] on 1 GPU (within 10 h: PASS)')}`,
    )
    // Issue 58: why it is UNCHECKED and how to check it first, then each undecided verdict.
    expect(top).toMatch(
      /\n\n- UNCHECKED, 1 GPU: no held-out run: .*; to check it: .*\n- PERF-02 DNABERT-S Feature Extraction, 1 GPU, at 6,000,000 sequences: UNDECIDED: .*; to decide it: /,
    )
    expect(top).toContain(
      escapeMarkdown('46.4 h [41.5, 51.3] on 1 worker (over 10 h: FAIL) and 34.3 h [4.6, 65.8] on 2 workers'),
    )
    expect(top).toContain('| 1 worker | 0.349 \\[0.312, 0.385\\] | PASS | 46.4 \\[41.5, 51.3\\] | FAIL |')
    expect(section).not.toContain('**FINAL**')
  })

  test('one table per size, one row per configuration, with time, PERF-01, speedup, efficiency, PERF-02, PERF-03', () => {
    for (const size of ['10,000', '45,000', '6,000,000', '40']) expect(section).toContain(`#### At ${size} sequences`)
    const at6m = section.slice(section.lastIndexOf('#### At 6,000,000'))
    const rows = at6m.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| configuration'))
    expect(rows[0]).toMatch(/^\| 1 worker \| 46\.4 \\\[41\.5, 51\.3\\\] \| FAIL \| 1x \\\(baseline\\\) \| 100% \|/)
    expect(rows[1]).toMatch(/^\| 2 workers \| 34\.3 .* \| INCONCLUSIVE \| 1\.36x .* INCONCLUSIVE \| 68% \|/)
    expect(at6m).toContain('| configuration | wall time \\(h\\) \\[95% CI, judged once\\] |')
    // One utilization figure a stage in a size's table (at that size); the steady state is capacity.md's per-stage
    // table's detail.
    expect(rows[1]).toContain('DNABERT-S Feature Extraction 92.5% \\[83.3, 100.0\\] PASS')
    expect(rows[1]).not.toContain('90.0% \\[90.0, 90.0\\]')
    expect(rows[1]).toMatch(/\| 1\.05x \\\[0\.40, 3\.72\\\] INCONCLUSIVE \|$/) // PERF-03
  })

  test('break-even and asymptotic speedup per k, "never" where the CI never breaks even', () => {
    expect(section).toContain('| 2 workers vs 1 worker | 291 sequences \\[91, never\\] | INCONCLUSIVE | 1.36x')
  })

  test('the measured input and what the CIs cover', () => {
    expect(section).toContain('Input: generated \\(MEDIUM\\), sha256 4f7a7b704c4a…, 10,000 records')
    expect(section).toContain('measured at 1,000 and 10,000 records')
    expect(section).toContain('The intervals \\(95% CI, judged once\\) cover run-to-run variation')
  })

  test('a run without capacity records says so, as the other sections do', async () => {
    const demo = await loadDemo()
    expect(capacitySection(summaryMarkdown(reportOf(demo.records)))).toContain('_No capacity records._')
  })
})

describe('capacity.md', () => {
  const text = sectionMarkdown(both, 'capacity')

  test('adds each GPU stage as fixed cost and steady state, and the wall line per configuration', () => {
    expect(text).toContain('#### Fixed cost and steady state per GPU stage')
    expect(text).toContain(
      '| 1 GPU | DNABERT-S Feature Extraction | 1.095 \\[1.038, 1.135\\] | 70.0% \\[70.0, 75.0\\] |',
    )
    expect(text).toContain('| 1 GPU | 1,000: 10.25 \\(3 runs\\); 10,000: 40.32 \\(3 runs\\) | 6.87')
  })

  test('lists the constant-part notes and a configuration without a size model as an error', () => {
    const record = structuredClone(h200)
    ;(record.stats as { notFitted: unknown[] }).notFitted = [{ label: '2 GPUs', reason: 'run 1 <b>crashed</b>' }]
    const md = sectionMarkdown(reportOf([record]), 'capacity')
    expect(md).toContain("- 1 GPU: 'startup: ESM-2 Feature Extraction' held constant over sizes")
    expect(md).toContain('- ERROR: 2 GPUs has no size model: run 1 &lt;b&gt;crashed&lt;/b&gt;')
  })

  test('names and labels from records are escaped', () => {
    const record = structuredClone(cpu)
    record.name = '<script>x</script> | *bold*'
    const md = sectionMarkdown(reportOf([record]), 'capacity')
    expect(md).toContain('### &lt;script&gt;x&lt;/script&gt; \\| \\*bold\\*')
    expect(md).not.toContain('<script>')
  })
})

// Issue 44: a known answer's record (a check of the size model) was printed as a configuration's capacity answer.
describe('a known answer beside the capacity answer', () => {
  const known = { ...structuredClone(h200), id: 'known-answer-prework', name: 'known answer: prework (1 GPU, prework)' }
  const report = reportOf([known, cpu])

  test("the summary's answer is the configuration's alone; the known answer stays with the evidence, named so", () => {
    const summary = summaryMarkdown(report)
    const top = summary.slice(0, summary.indexOf('## Suites'))
    expect(top).toContain('6 M sequences take 46.4 h')
    expect(top).not.toContain('known answer')
    expect(top).not.toContain('5.6 h')
    expect(capacitySection(summary)).toContain(`### ${escapeMarkdown('known answer: prework (1 GPU, prework)')}`)
  })

  test('capacity.md says what it is instead of an answer, then its evidence', () => {
    const md = sectionMarkdown(report, 'capacity')
    const own = md.slice(md.indexOf('### known answer'), md.indexOf('### capacity, 1 worker'))
    expect(own).toContain(escapeMarkdown('A known answer, not a capacity answer'))
    expect(own).not.toMatch(/\*\*(FINAL|UNCHECKED|UNDECIDED|PROVISIONAL)/)
    expect(own).toContain('#### At 6,000,000 sequences')
  })
})

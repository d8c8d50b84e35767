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
  const section = capacitySection(summaryMarkdown(both))

  test('answers the question in one line per record, with the times, verdicts, speedup and break-even', () => {
    expect(section).toContain(
      `**${escapeMarkdown('6,000,000 sequences (production, limit 10 h): 1 GPU 5.57 h [5.34, 5.83] (PERF-01 PASS).')}**`,
    )
    expect(section).toContain(
      escapeMarkdown(
        '1 worker 46.4 h [41.5, 51.3] (PERF-01 FAIL); 2 workers 34.3 h [4.6, 65.8] (PERF-01 INCONCLUSIVE): 1.36x [0.58, 4.67] over 1 worker (efficiency 68%), break-even 291 sequences [91, never].',
      ),
    )
  })

  test('one table per size, one row per configuration, with time, PERF-01, speedup, efficiency, PERF-02, PERF-03', () => {
    for (const size of ['10,000', '45,000', '6,000,000', '40']) expect(section).toContain(`#### At ${size} sequences`)
    const at6m = section.slice(section.lastIndexOf('#### At 6,000,000'))
    const rows = at6m.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| configuration'))
    expect(rows[0]).toMatch(/^\| 1 worker \| 46\.4 h \\\[41\.5, 51\.3\\\] \| FAIL \| 1x \\\(baseline\\\) \| 100% \|/)
    expect(rows[1]).toMatch(/^\| 2 workers \| 34\.3 h .* \| INCONCLUSIVE \| 1\.36x .* INCONCLUSIVE \| 68% \|/)
    expect(rows[1]).toContain('DNABERT-S Feature Extraction 90.0% \\[90.0, 90.0\\] PASS') // steady state
    expect(rows[1]).toMatch(/\| 1\.05x \\\[0\.40, 3\.72\\\] INCONCLUSIVE \|$/) // PERF-03
  })

  test('break-even and asymptotic speedup per k, "never" where the CI never breaks even', () => {
    expect(section).toContain('| 2 workers vs 1 worker | 291 sequences \\[91, never\\] | INCONCLUSIVE | 1.36x')
  })

  test('the measured input and what the CIs cover', () => {
    expect(section).toContain('Input: generated \\(MEDIUM\\), sha256 4f7a7b704c4a…, 10,000 records')
    expect(section).toContain('measured at 1,000 and 10,000 records')
    expect(section).toContain('The 95% CIs cover run-to-run variation')
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
      '| 1 GPU | DNABERT-S Feature Extraction | 1.09 s \\[1.04 s, 1.13 s\\] | 70.0% \\[70.0, 75.0\\] |',
    )
    expect(text).toContain('| 1 GPU | 1,000: 10.25 s \\(3 runs\\); 10,000: 40.32 s \\(3 runs\\) | 6.87 s')
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

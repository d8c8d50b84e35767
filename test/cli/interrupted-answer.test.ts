// One capacity answer, the same in every output (issue 36), for a measurement a time limit cut: call G of issue 24
// (2 x H200) laid out as its journal, kept to 11 of its 12 measured runs, read by `report` and `capacity`. Every report
// (capacity.md, summary.md, bottleneck.md, perf02.md, index.html, the terminal) and the command (text and JSON) open
// with the same PROVISIONAL answer and the same figures; none of the lines the issue found false appears; its verdicts
// read PROVISIONAL and count as no pass or fail. The same measurement finished reads FINAL everywhere; one cut before
// its second size has no projection yet, and says so with its input and count of runs.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { beforeAll, describe, expect, test } from 'vitest'
import type { CapacityAnswer } from '../../src/capacity/answer.ts'
import { answerView } from '../../src/capacity/answer-table.ts'
import { escapeHtml, escapeMarkdown } from '../../src/report/render/escape.ts'
import { h200Record } from '../capacity/support/gpu-capacity.ts'
import { finishedCapacityDir, interruptedCapacityDir } from '../capacity/support/interrupted-capacity.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const CLI = join(import.meta.dirname, '../../src/cli.ts')
const cli = (args: string[]) => execa(process.execPath, [CLI, ...args], { reject: false, env: { NO_COLOR: '1' } })
const root = tempDirUntilFileEnd('interrupted-answer-')
const runId = h200Record('g').provenance.runId

/** Every output of one run directory: the reports, the report command's terminal, the capacity command's text and JSON. */
interface Outputs {
  files: Record<'capacity.md' | 'summary.md' | 'bottleneck.md' | 'perf02.md' | 'index.html', string>
  summaryJson: {
    counts: Record<string, number>
    suites: { counts: Record<string, number> }[]
    perf02: Record<string, number>
  }
  terminal: string
  capacity: Awaited<ReturnType<typeof cli>>
  json: { answer: CapacityAnswer; verdicts: { verdict: string; provisional: boolean }[] } | null
}

async function outputsOf(name: string, dir: string): Promise<Outputs> {
  const out = join(root, `${name}-reports`)
  const json = join(root, `${name}.json`)
  const [report, capacity] = await Promise.all([
    cli(['report', dir, '--out', out]),
    cli(['capacity', dir, '--json', json]),
  ])
  expect(report.exitCode, report.stderr).toBe(0)
  const read = (file: string) => readFileSync(join(out, file), 'utf8')
  const names = ['capacity.md', 'summary.md', 'bottleneck.md', 'perf02.md', 'index.html'] as const
  return {
    files: Object.fromEntries(names.map((n) => [n, read(n)])) as Outputs['files'],
    summaryJson: JSON.parse(read('summary.json')),
    terminal: report.stdout,
    capacity: capacity,
    json: capacity.exitCode === 0 ? JSON.parse(readFileSync(json, 'utf8')) : null,
  }
}

/**
 * The answer's headline (its status, and once stopped how: issue 44) and sentence as each output writes it (markdown
 * and HTML escape; the headline marked bold).
 */
function expectSentence(o: Outputs, answer: CapacityAnswer): void {
  const rest = answer.sentence.slice(answer.headline.length)
  for (const file of ['capacity.md', 'summary.md', 'bottleneck.md', 'perf02.md'] as const)
    expect(o.files[file], file).toContain(`**${escapeMarkdown(answer.headline)}**${escapeMarkdown(rest)}`)
  expect(o.files['index.html']).toContain(`<strong>${escapeHtml(answer.headline)}</strong>${escapeHtml(rest)}`)
  expect(o.terminal).toContain(answer.sentence)
  expect(o.capacity.stdout.split('\n')[0]).toBe(answer.sentence)
}

/** Each report's top, up to its first section after the answer. */
const topOf = (text: string, until: string) => text.slice(0, text.indexOf(until))
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** A decision or verdict marked provisional, or a provisional status (the verdict legend's word is neither). */
const PROVISIONAL = /PROVISIONAL (\(\d|PASS|FAIL|UNDECIDED|INCONCLUSIVE|AT THRESHOLD)/

let interrupted: Outputs
let finished: Outputs
let early: Outputs
beforeAll(async () => {
  await interruptedCapacityDir(join(root, 'cut', runId), 13)
  await finishedCapacityDir(join(root, 'whole', runId))
  await interruptedCapacityDir(join(root, 'early', runId), 4)
  ;[interrupted, finished, early] = await Promise.all([
    outputsOf('cut', join(root, 'cut', runId)),
    outputsOf('whole', join(root, 'whole', runId)),
    outputsOf('early', join(root, 'early', runId)),
  ])
}, 120_000)

describe('a capacity measurement cut by a time limit: one PROVISIONAL answer everywhere', () => {
  test('the command answers PROVISIONAL (11 of 12 runs) first, in its text and its JSON', () => {
    const answer = interrupted.json!.answer
    expect(interrupted.capacity.exitCode, interrupted.capacity.stderr).toBe(0)
    expect(answer.statusText).toBe('PROVISIONAL (11 of 12 runs)')
    expect(answer.sentence).toMatch(/^PROVISIONAL \(11 of 12 runs\): 6 M sequences take [\d.]+ h \[/)
    expect(answer.gpus.map((g) => g.label)).toEqual(['1 GPU', '2 GPUs'])
  })

  test('every report opens with the same status and sentence as the command', () => {
    expectSentence(interrupted, interrupted.json!.answer)
    // At the top: before the suites (summary.md), the evidence (capacity.md) and the run groups (bottleneck, PERF-02).
    const { sentence: whole, statusText } = interrupted.json!.answer
    const sentence = escapeMarkdown(whole.slice(statusText.length + 2, statusText.length + 60))
    expect(topOf(interrupted.files['summary.md'], '## Suites')).toContain(sentence)
    expect(topOf(interrupted.files['capacity.md'], '#### Evidence')).toContain(sentence)
    expect(topOf(interrupted.files['bottleneck.md'], '## The measured runs')).toContain(sentence)
    expect(topOf(interrupted.files['perf02.md'], '## Measured, per run group')).toContain(sentence)
  })

  test("the same figures: each row of the answer's tables in capacity.md, index.html and the command's text", () => {
    const view = answerView(interrupted.json!.answer)
    const time = view.tables.find((t) => t.id === 'time')!
    expect(time.rows[0]).toEqual([
      '1 GPU',
      expect.stringMatching(/^0\.04\d\d \[/),
      'PROVISIONAL UNDECIDED',
      expect.stringMatching(/^5\.\d\d \[5\.\d\d, 5\.\d\d\]$/),
      'PROVISIONAL UNDECIDED',
    ])
    for (const table of view.tables)
      for (const row of table.rows) {
        expect(interrupted.files['capacity.md']).toContain(`| ${row.map(escapeMarkdown).join(' | ')} |`)
        expect(interrupted.files['index.html']).toContain(`<td>${row.map(escapeHtml).join('</td><td>')}</td>`)
        expect(interrupted.capacity.stdout).toMatch(new RegExp(row.map(escapeRegExp).join(' +')))
      }
    for (const row of view.tables.find((t) => t.id === 'stages')!.rows)
      expect(interrupted.files['bottleneck.md']).toContain(`| ${row.map(escapeMarkdown).join(' | ')} |`)
    for (const row of view.tables.find((t) => t.id === 'perf02')!.rows)
      expect(interrupted.files['perf02.md']).toContain(`| ${row.map(escapeMarkdown).join(' | ')} |`)
  })

  test('the time by stage at 6 M names the stage that holds it back; what to measure more of; the terms defined', () => {
    const md = interrupted.files['capacity.md']
    expect(md).toMatch(/On 1 GPU, ESM-2 Feature Extraction holds 6 M back: [\d.]+ h of [\d.]+ h /)
    expect(md).toMatch(/On 2 GPUs, ESM-2 Feature Extraction holds 6 M back: [\d.]+ h of [\d.]+ h /)
    expect(md).toContain('#### What to measure more of')
    for (const file of ['capacity.md', 'summary.md'] as const) {
      expect(interrupted.files[file]).toContain(escapeMarkdown('speedup (k GPUs against 1): the 1-GPU wall time over'))
      expect(interrupted.files[file]).toContain(escapeMarkdown('PERF-03: 2 GPUs run at least 1.9x as fast as 1'))
    }
    expect(interrupted.capacity.stdout).toContain('speedup (k GPUs against 1): the 1-GPU wall time over')
  })

  test('none of the false lines of issue 36 appears', () => {
    const all = [...Object.values(interrupted.files), interrupted.terminal, interrupted.capacity.stdout].join('\n')
    for (const line of [
      'No size model, so no projection',
      'No completed runs to analyze',
      'No GPU-stage monitor data',
      '(0 completed, 0 failed, 0 skipped)',
      'Input: not recorded',
      'measured at no records',
    ])
      expect(all).not.toContain(line)
    expect(interrupted.files['summary.md']).toContain('1 records (0 completed, 1 partial, 0 failed, 0 skipped)')
    expect(interrupted.files['capacity.md']).toContain(escapeMarkdown('measured at 1,000 and 4,000 records'))
    // index.html draws these runs' GPU charts, and its PERF-02 table now holds them too.
    expect(interrupted.files['perf02.md']).toMatch(/\| ESM-2 Feature Extraction \| 0 \|.*\| PROVISIONAL (PASS|FAIL) \|/)
  })

  test('its verdicts read PROVISIONAL, never a final PASS or FAIL, and count as no pass or fail', () => {
    for (const file of ['capacity.md', 'summary.md', 'perf02.md'] as const)
      expect(interrupted.files[file], file).not.toMatch(/\| (PASS|FAIL|UNDECIDED|INCONCLUSIVE) \||\) (PASS|FAIL);/)
    expect(interrupted.files['index.html']).not.toMatch(/>(PASS|FAIL)<\/span>/)
    expect(interrupted.capacity.stdout).not.toMatch(/^ {2}(PASS|FAIL) /m)
    expect(interrupted.capacity.stdout).toMatch(/^ {2}PROVISIONAL (PASS|FAIL) +capacity\/1\/perf01\/measured/m)
    expect(interrupted.json!.verdicts.every((v) => v.provisional)).toBe(true)
    expect(interrupted.summaryJson.suites[0]!.counts).toMatchObject({ pass: 0, fail: 0 })
    expect(interrupted.summaryJson.perf02).toMatchObject({ pass: 0, fail: 0, provisional: 12 })
  })
})

describe('the same measurement finished, and one cut before its second size', () => {
  test('the finished record, stopped without a held-out run, reads UNCHECKED (never FINAL) in every report and the command, with its design', () => {
    const answer = finished.json!.answer
    expect(answer.statusText).toBe('UNCHECKED (no held-out run)')
    // Issue 44: how it stopped and where that left its verdicts, each undecided one's reason under the sentence.
    expect(answer.headline).toMatch(/^UNCHECKED \(no held-out run; design finished: \d+ of 9 verdicts undecided\)$/)
    // Issue 58: why it is UNCHECKED and how to check it first, under the sentence; then each undecided verdict.
    const lines = finished.capacity.stdout.split('\n')
    expect(lines[1]).toMatch(/^ {2}UNCHECKED, .*: no held-out run: .*; to check it: /)
    expect(lines.slice(1).find((l) => !l.includes('UNCHECKED,'))).toMatch(/^ {2}.*: UNDECIDED: .*; to decide it: /)
    for (const text of [...Object.values(finished.files), finished.capacity.stdout])
      expect(text).not.toMatch(/\bFINAL\b/)
    expectSentence(finished, answer)
    expect(finished.files['capacity.md']).toContain(
      escapeMarkdown('Design: rule decided; stopped: decided; 1 of 6 looks; 7.6 of 14 GPU-minutes of budget.'),
    )
    expect(finished.capacity.stdout).toContain('Design: rule decided; stopped: decided; 1 of 6 looks')
    for (const text of [...Object.values(finished.files), finished.capacity.stdout])
      expect(text).not.toMatch(PROVISIONAL)
  })

  test('cut before its second size: PROVISIONAL with its runs and input, no projection yet, never "no size model"', () => {
    const md = early.files['capacity.md']
    expect(md).toContain(escapeMarkdown('PROVISIONAL (3 of 12 runs): no projection yet'))
    expect(md).toContain(escapeMarkdown('Input: generated (MEDIUM), sha256 ebf2934aa2e9'))
    expect(md).toContain(escapeMarkdown('measured at 1,000 and 4,000 records'))
    expect(early.files['summary.md']).toContain(escapeMarkdown('PROVISIONAL (3 of 12 runs): no projection yet'))
    expect(early.terminal).toContain('PROVISIONAL (3 of 12 runs): no projection yet')
    expect(md).not.toContain('No size model')
    // The command has nothing to refit and says why (exit 3), as before.
    expect(early.capacity.exitCode).toBe(3)
  })
})

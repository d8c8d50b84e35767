// The settings study for a terminal (the `capacity` command): the same rows as summary.md, aligned.
import { describe, expect, test } from 'vitest'
import { analyzeStudyRecords } from '../../../src/report/analyses/study.ts'
import { studyTextLines } from '../../../src/report/render/study-text.ts'
import { BEST, studyRecord, withStats } from '../support/study.ts'

describe('study text lines', () => {
  test('the record named, the sentence, the table aligned column by column, the notes', () => {
    const lines = studyTextLines(analyzeStudyRecords([studyRecord()]))
    expect(lines[0]).toBe('Settings study:')
    expect(lines[1]).toBe(
      'settings study of --dnabert-batch-size --cuda-streams on 2 GPUs (record study-2-GPUs-dnabert-batch-size-cuda-streams):',
    )
    expect(lines[2]).toMatch(/^ {2}FINAL: of 4 settings screened on 2 GPUs/)
    expect(lines[3]).toBe('  Settings against the default at 6,000,000 sequences:')
    const [head, ...rows] = lines.slice(4, 10)
    const at = head!.indexOf('hours at 6 M on 2 GPUs')
    expect(rows.map((r) => r.slice(4, r.indexOf('  ', 4)))).toEqual([
      'default',
      `${BEST} (best)`,
      'dnabert-batch-size=512',
      'dnabert-batch-size=4096',
      'cuda-streams=2',
    ])
    expect(rows[1]!.slice(at)).toMatch(/^7\.40 h \[6\.50, 8\.30\] PASS /)
    expect(lines.at(-1)).toMatch(/^ {2}verdicts against the default: /)
  })

  test('a study without a table: its one line under its name; no study: no lines', () => {
    const damaged = withStats(studyRecord(), () => ({}))
    expect(studyTextLines(analyzeStudyRecords([damaged]))).toEqual([
      'Settings study:',
      'settings study of --dnabert-batch-size --cuda-streams on 2 GPUs (record study-2-GPUs-dnabert-batch-size-cuda-streams):',
      "  settings study 'settings study of --dnabert-batch-size --cuda-streams on 2 GPUs' (study-2-GPUs-dnabert-batch-size-cuda-streams): completed without figures (stats empty): no table",
    ])
    expect(studyTextLines({ entries: [] })).toEqual([])
  })
})

import { describe, expect, test } from 'vitest'
import { withoutStudySettings } from '../../../src/report/analyses/study.ts'
import { sampleResultRecord } from '../../support/result-records.ts'
import { BEST, studyRecord, withStats } from '../support/study.ts'

const capacityRecord = (id: string) => sampleResultRecord({ id, kind: 'capacity' })

describe("a capacity refit's records beside a settings study", () => {
  test("the best setting's capacity record and the study's screening runs are left out, each named; the default's stays", () => {
    const study = studyRecord()
    const withRuns = { ...study, runs: capacityRecord('x').runs }
    const out = withoutStudySettings([capacityRecord('capacity-default'), capacityRecord('capacity-best'), withRuns])
    expect(out.records.map((r) => r.id)).toEqual(['capacity-default'])
    expect(out.notes).toEqual([
      `capacity-best: the capacity answer of setting ${BEST} of ${study.id}, left out of the default's refit`,
      `${study.id}: a settings study's screening runs left out of the refit`,
    ])
  })

  test('without a study nothing is left out', () => {
    const plain = [capacityRecord('capacity-default'), capacityRecord('capacity-best')]
    expect(withoutStudySettings(plain)).toEqual({ records: plain, notes: [] })
  })

  // Issue 47: with the study record cut short, of the wrong type, or deleted, the winner's capacity answer stood
  // beside the default's as a second 1-GPU configuration. Its own configurations name the setting: left out, named.
  test("a setting's capacity record stays out when its study record is damaged or gone: known by its labels", () => {
    const of = (id: string, labels: string[]) =>
      sampleResultRecord({ id, kind: 'capacity', stats: { configurations: labels.map((label) => ({ label })) } })
    const setting = of('capacity-best', ['esm-batch-size=8192 seed=0, 1 GPU', 'esm-batch-size=8192 seed=0, 2 GPUs'])
    const records = [of('capacity-default', ['1 GPU', '2 GPUs']), setting, of('capacity-odd', ['1 GPU, prework'])]
    const note = `capacity-best: the capacity answer of setting esm-batch-size=8192 seed=0 (by its configurations' labels; no readable study names it), left out of the default's refit`
    for (const study of [[], [withStats(studyRecord(), (s) => ({ ...s, rows: 'cut' }))]]) {
      const out = withoutStudySettings([...records, ...study])
      expect(out.records.map((r) => r.id)).toEqual(['capacity-default', 'capacity-odd'])
      expect(out.notes[0]).toBe(note)
    }
  })
})

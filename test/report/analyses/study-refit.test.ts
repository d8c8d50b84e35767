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

  test('without a study nothing is left out; a damaged study names no setting, so its capacity records stay', () => {
    const plain = [capacityRecord('capacity-default'), capacityRecord('capacity-best')]
    expect(withoutStudySettings(plain)).toEqual({ records: plain, notes: [] })
    const damaged = withStats(studyRecord(), (s) => ({ ...s, rows: 'cut' }))
    expect(withoutStudySettings([...plain, damaged]).records).toEqual(plain)
  })
})

// Run groups: records that hold the same runs (the scaling suite's 1-GPU arm and the stage suite, sharing runs through
// the run cache) make one group naming both, so PERF-02, bottleneck and memory list each (group, stage, GPU) once.
// Built from the committed demo scaling record (test/report/support/shared-runs.ts).
import { describe, expect, test } from 'vitest'
import { analyzeBottlenecks } from '../../../src/report/analyses/bottleneck.ts'
import { analyzeMemory } from '../../../src/report/analyses/memory.ts'
import { analyzePerf02 } from '../../../src/report/analyses/perf02.ts'
import { runGroups } from '../../../src/results/runs.ts'
import { loadDemo } from '../support/demo.ts'
import { sharedRunRecords } from '../support/shared-runs.ts'

const demo = await loadDemo()

describe('run groups of records sharing runs', () => {
  test('the shared 1-GPU runs are one group naming both records; the 2-GPU runs stay the scaling record’s', () => {
    const { scaling, stage } = sharedRunRecords(demo)
    const groups = runGroups([scaling, stage])
    expect(groups.map((g) => [g.runs[0]?.group, g.recordIds])).toEqual([
      ['1 GPU', ['scaling-reference', 'stage-1-GPU']],
      ['2 GPUs', ['scaling-reference']],
    ])
  })

  test('PERF-02, bottleneck and memory list each (group, stage, GPU) once, with every record id', () => {
    const { scaling, stage } = sharedRunRecords(demo)
    const both = ['scaling-reference', 'stage-1-GPU']
    const perf02 = analyzePerf02([scaling, stage], demo.series).rows.filter((r) => r.group === '1 GPU')
    expect(perf02.map((r) => [r.stage, r.gpu, r.recordIds])).toEqual([
      ['DNABERT-S Feature Extraction', 0, both],
      ['ESM-2 Feature Extraction', 0, both],
    ])
    const bottleneck = analyzeBottlenecks([scaling, stage]).groups.filter((g) => g.group === '1 GPU')
    expect(bottleneck.map((g) => g.recordIds)).toEqual([both])
    const memory = analyzeMemory([scaling, stage]).rows.filter((r) => r.group === '1 GPU')
    expect(memory.map((r) => [r.gpu, r.recordIds])).toEqual([[0, both]])
  })

  test('runs are the same only by their logs: runs without a log path, or another start, are never merged', () => {
    const { scaling, stage } = sharedRunRecords(demo)
    const noLogs = structuredClone(stage)
    for (const m of noLogs.runs) m.run.logPath = null
    expect(runGroups([scaling, noLogs]).map((g) => g.recordIds)).toEqual([
      ['scaling-reference'],
      ['scaling-reference'],
      ['stage-1-GPU'],
    ])
    const rerun = structuredClone(stage)
    for (const m of rerun.runs) m.run.startedAt = '2026-03-03T00:00:00.000Z'
    expect(runGroups([scaling, rerun]).map((g) => g.recordIds)).toHaveLength(3)
  })

  test('a record holding only some of a group’s runs is another group', () => {
    const { scaling, stage } = sharedRunRecords(demo)
    const fewer = { ...stage, runs: stage.runs.slice(1) }
    expect(runGroups([scaling, fewer]).map((g) => g.recordIds)).toEqual([
      ['scaling-reference'],
      ['scaling-reference'],
      ['stage-1-GPU'],
    ])
  })
})

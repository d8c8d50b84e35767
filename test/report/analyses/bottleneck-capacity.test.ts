import { describe, expect, test } from 'vitest'
import type { CapacityStats } from '../../../src/capacity/analyze.ts'
import { analyzeBottlenecks } from '../../../src/report/analyses/bottleneck.ts'
import type { ResultRecord } from '../../../src/results/schema/index.ts'
import { capacityRecord, H200_1GPU } from '../support/capacity.ts'
import { loadDemo } from '../support/demo.ts'

const h200 = await capacityRecord(H200_1GPU)
const demo = (await loadDemo()).records
const DNABERT = 'DNABERT-S Feature Extraction'
const stageModel = (stage: string) =>
  (h200.stats as unknown as CapacityStats).configurations[0]!.stages.find((s) => s.stage === stage)!

const stageOf = (records: ResultRecord[], group: string, stage: string) =>
  analyzeBottlenecks(records)
    .groups.find((g) => g.group === group)
    ?.stages.find((s) => s.stage === stage)

describe('bottleneck stages: fixed cost and steady state', () => {
  test("a GPU stage splits into start-up (the monitor's lead before the first work) and the rest", () => {
    const s = stageOf([h200], '1 GPU, 10,000 seqs', DNABERT)!
    const leads = h200.runs
      .filter((r) => !r.warmup && r.label.startsWith('1 GPU, 10,000'))
      .map((r) => r.gpu!.stages.find((w) => w.stage === DNABERT)!.gpus[0]!.leadingIdleMs as number)
      .sort((a, b) => a - b)
    expect(s.startupMs).toBe(leads[1]) // median of 3 runs
    expect(s.steadyMs).toBeCloseTo(s.durationMs - s.startupMs!, 9)
    expect(s.steadyUtilPct).toBeGreaterThan(s.utilPct!) // start-up idle left out
  })

  test('where a capacity record fitted the configuration, the stage carries its fixed and per-sequence parts', () => {
    const s = stageOf([h200], '1 GPU, 1,000 seqs', DNABERT)!
    const model = stageModel(DNABERT)
    expect(s.sizeModel).toEqual({
      recordId: 'capacity-1-GPU',
      configuration: '1 GPU',
      fixedMs: { value: model.fixedMs.estimate, ci: { low: model.fixedMs.ci!.low, high: model.fixedMs.ci!.high } },
      msPerSequence: expect.objectContaining({ value: model.msPerSequence.estimate }),
    })
  })

  test('a scaling group of the same configuration (label and GPU count) gets the parts; another GPU count does not', () => {
    expect(stageOf([...demo, h200], '1 GPU', DNABERT)?.sizeModel?.configuration).toBe('1 GPU')
    expect(stageOf([...demo, h200], '2 GPUs', DNABERT)?.sizeModel).toBeNull()
    expect(stageOf(demo, '1 GPU', DNABERT)?.sizeModel).toBeNull()
  })

  test('records written before the monitor kept start-up and steady state show neither, never a made-up number', () => {
    const s = stageOf(demo, '1 GPU', DNABERT)!
    expect(s).toMatchObject({ gpuStage: true, startupMs: null, steadyMs: null, steadyUtilPct: null })
    expect(s.utilPct).not.toBeNull()
  })

  test('stages that are not GPU stages have no split', () => {
    expect(stageOf([h200], '1 GPU, 10,000 seqs', 'Six-Frame Translation')).toMatchObject({
      gpuStage: false,
      startupMs: null,
      steadyMs: null,
      steadyUtilPct: null,
      sizeModel: null,
    })
  })
})

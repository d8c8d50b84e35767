// A stage too short to judge (config/judging.ts) gets no speedup verdict: its times are the process start and the
// log's clock. Three runs a side: Model Prediction 4-6 ms, ESM-2 10 s on 1 GPU and 5.5 s on 2.
import { describe, expect, test } from 'vitest'
import { DEFAULT_THRESHOLDS } from '../../../src/config/thresholds.ts'
import type { MeasuredConfiguration } from '../../../src/engine/measure-configuration.ts'
import { analyzeScaling } from '../../../src/suites/scaling/scaling.ts'
import { sampleRunRecord } from '../../support/result-records.ts'
import { stageSpan } from '../../support/stage-span.ts'

function measurement(setup: string, gpus: number[], esm2Ms: number): MeasuredConfiguration {
  const observations = [4, 5, 6].map((predictionMs, i) => ({
    measured: {
      label: `${setup} run ${i + 1}`,
      config: { setup, gpus },
      warmup: false,
      run: sampleRunRecord({
        wallMs: 1_000 + esm2Ms + predictionMs,
        stages: [
          stageSpan(6, 'ESM-2 Feature Extraction', 1_000, esm2Ms + i * 50),
          stageSpan(8, 'Model Prediction', 1_000 + esm2Ms, predictionMs),
        ],
        gpusRequested: gpus,
        gpusUsed: gpus,
      }),
      gpu: null,
    },
    esm2Batches: [],
  }))
  return {
    config: { label: setup },
    observations,
    stop: 'run-budget',
    failure: null,
    reusedRuns: 0,
  } as unknown as MeasuredConfiguration
}

describe('scaling of stages too short to judge', () => {
  test("a 4-6 ms stage's speedup is skipped, saying why; the 10 s stage is judged", () => {
    const { verdicts } = analyzeScaling(
      measurement('1 GPU', [0], 10_000),
      measurement('2 GPUs', [0, 1], 5_500),
      2,
      DEFAULT_THRESHOLDS,
    )
    const short = verdicts.find((v) => v.id === 'scaling/2/Model Prediction')!
    expect(short.verdict).toBe('skipped')
    expect(short.detail).toMatch(/^not judged: \d ms, under 1000 ms/)
    expect(verdicts.find((v) => v.id === 'scaling/2/ESM-2 Feature Extraction')!.verdict).not.toBe('skipped')
  })
})

// The lines the optimization switches leave in a run's log, as VirNucPro's code writes them (esm2_flash.py's wrapper
// repr, cli/predict.py's settings block, pipeline/prediction.py) and as the reference pipeline does.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { readSwitchLines } from '../../src/pipeline/switch-lines.ts'

const at = '2026-12-07 13:25:36'

describe('readSwitchLines', () => {
  test("VirNucPro's lines: the dtype of each ESM-2 build, the CLI's streams state, the multi-GPU DNABERT-S workers", () => {
    const lines = [
      `${at} - virnucpro - INFO -   CUDA streams: disabled`,
      `${at} - virnucpro - INFO - Architecture: v2.0 hybrid`,
      `${at} - virnucpro.pipeline.prediction - INFO - Using 2 GPUs for DNABERT-S extraction`,
      `${at},512 - Worker 0 - virnucpro.models.esm2_flash - INFO - ESM-2 ready: ESM2WithFlashAttention(attention=flash_attention_2, device=cuda:0, dtype=float16)`,
      `${at},733 - Worker 1 - virnucpro.models.esm2_flash - INFO - ESM-2 ready: ESM2WithFlashAttention(attention=flash_attention_2, device=cuda:0, dtype=float16)`,
    ]
    expect(readSwitchLines(lines)).toEqual({
      esm2Dtypes: ['float16', 'float16'],
      packingDisabled: false,
      cudaStreams: 'disabled',
      dnabertGpus: 2,
    })
  })

  test("the reference pipeline's lines: packing said to be off, its encoder's dtype", () => {
    const lines = [
      `${at} - refpipe.pipeline.prediction - INFO - ESM-2: sequence packing disabled (VIRNUCPRO_DISABLE_PACKING=true): batches in input order, each padded to its longest sequence`,
      `${at} - Worker 0 - refpipe.features - INFO - ESM-2 ready: Encoder(layers=2, hidden=64, heads=4, device=cpu, dtype=float32) built in 0.0s, 0.00 GiB of weights`,
    ]
    expect(readSwitchLines(lines)).toEqual({
      esm2Dtypes: ['float32'],
      packingDisabled: true,
      cudaStreams: null,
      dnabertGpus: null,
    })
  })

  test('a line only quoting one (another message, a traceback) is not read as it', () => {
    const lines = [
      `${at} - x - INFO - would log ESM-2 ready: (dtype=float16)`,
      '  File "x.py", line 3, in <module>: ESM-2: sequence packing disabled',
      `${at} - x - INFO - CUDA streams: maybe`,
      `${at} - x - INFO - Using GPUs for DNABERT-S extraction`,
    ]
    expect(readSwitchLines(lines)).toEqual({
      esm2Dtypes: [],
      packingDisabled: false,
      cudaStreams: null,
      dnabertGpus: null,
    })
  })

  test('any lines are read without a throw; ready lines put among them are found, in order', () => {
    const dtype = fc.stringMatching(/^[a-z0-9_]{1,10}$/)
    const other = fc.string({ unit: 'binary', maxLength: 60 }).filter((l) => !l.includes('ESM-2 ready'))
    fc.assert(
      fc.property(fc.array(fc.tuple(other, fc.option(dtype, { nil: undefined }))), (rows) => {
        const lines = rows.flatMap(([line, d]) =>
          d === undefined ? [line] : [line, `${at} - Worker 3 - m - INFO - ESM-2 ready: E(dtype=${d})`],
        )
        const found = readSwitchLines(lines)
        expect(found.esm2Dtypes).toEqual(rows.flatMap(([, d]) => (d === undefined ? [] : [d])))
      }),
    )
  })
})

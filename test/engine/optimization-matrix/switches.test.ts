// What each switch's run must show in its log before its arm is believed (the evidence as evidence.ts reads it).
import { describe, expect, test } from 'vitest'
import {
  type OptimizationSwitch,
  REFERENCE_SWITCHES,
  type SwitchEvidence,
  VIRNUCPRO_SWITCHES,
} from '../../../src/engine/optimization-matrix/index.ts'

const byName = (list: readonly OptimizationSwitch[], name: string) => list.find((s) => s.name === name)!

/** A v2.0 run with packed batches, fp16 builds, multi-GPU DNABERT-S and streams on: every sign of every switch on. */
const ALL_ON: SwitchEvidence = {
  esm2Architecture: 'v2.0',
  esm2BatchLines: 4,
  esm2Batches: 4,
  esm2Tokens: 20_000,
  esm2Dtypes: ['float16'],
  packingDisabled: false,
  cudaStreams: 'enabled',
  dnabertGpus: 2,
}
const ev = (over: Partial<SwitchEvidence>): SwitchEvidence => ({ ...ALL_ON, ...over })

describe("VirNucPro's switches", () => {
  const packing = byName(VIRNUCPRO_SWITCHES, 'packing')
  const fp16 = byName(VIRNUCPRO_SWITCHES, 'fp16')
  const streams = byName(VIRNUCPRO_SWITCHES, 'cuda streams')

  test('packing, either state: refused off the v2.0 path, whose async inference is its one reader', () => {
    for (const on of [true, false])
      expect(packing.missingSign(on, ev({ esm2Architecture: 'v1.0' }))).toBe(
        "its ESM-2 stage ran on v1.0, and only v2.0's async inference reads VIRNUCPRO_DISABLE_PACKING",
      )
  })

  test('packing on needs Batch lines; off needs nothing more (VirNucPro logs nothing when it reads it off)', () => {
    expect(packing.missingSign(true, ALL_ON)).toBeNull()
    expect(packing.missingSign(true, ev({ esm2BatchLines: 0 }))).toMatch(/^no ESM-2 Batch line with a pack eff.*2,000/)
    expect(packing.missingSign(false, ev({ esm2BatchLines: 0 }))).toBeNull()
  })

  test('fp16: every ESM-2 build in the dtype of its state', () => {
    expect(fp16.missingSign(true, ALL_ON)).toBeNull()
    expect(fp16.missingSign(false, ev({ esm2Dtypes: ['float32', 'float32'] }))).toBeNull()
    expect(fp16.missingSign(false, ev({ esm2Dtypes: ['float32', 'float16'] }))).toBe(
      'ESM-2 was built in float16 (its ESM-2 ready line), not float32',
    )
    expect(fp16.missingSign(true, ev({ esm2Dtypes: [] }))).toBe(
      'no ESM-2 ready line names the dtype ESM-2 was built in',
    )
  })

  test("CUDA streams: the multi-GPU DNABERT-S workers ran, and the CLI's line says the state", () => {
    expect(streams.missingSign(true, ALL_ON)).toBeNull()
    expect(streams.missingSign(false, ev({ cudaStreams: 'disabled' }))).toBeNull()
    expect(streams.missingSign(false, ALL_ON)).toBe("the CLI logged 'CUDA streams: enabled', not disabled")
    expect(streams.missingSign(true, ev({ dnabertGpus: null }))).toMatch(/^no 'Using N GPUs for DNABERT-S/)
  })
})

describe("the reference pipeline's switches", () => {
  const packing = byName(REFERENCE_SWITCHES, 'packing')
  const budget = byName(REFERENCE_SWITCHES, '32k token budget')

  test("packing off needs the pipeline's own line saying so; on, Batch lines and no such line", () => {
    expect(packing.missingSign(false, ev({ packingDisabled: true }))).toBeNull()
    expect(packing.missingSign(false, ALL_ON)).toBe(
      "no 'sequence packing disabled' line: the pipeline never said it read the switch",
    )
    expect(packing.missingSign(true, ALL_ON)).toBeNull()
    expect(packing.missingSign(true, ev({ packingDisabled: true }))).toBe('the log says sequence packing was disabled')
    expect(packing.missingSign(false, ev({ packingDisabled: true, esm2Architecture: 'v1.0' }))).toMatch(/ran on v1\.0/)
  })

  test('a token budget allows no fewer batches than its tokens fill: an 8k arm that packed 32k batches is refused', () => {
    // 20,000 tokens: at least 3 batches of 8,192, at least 1 of 32,768.
    expect(budget.missingSign(false, ev({ esm2Batches: 3 }))).toBeNull()
    expect(budget.missingSign(false, ev({ esm2Batches: 1 }))).toBe(
      '1 ESM-2 batch for 20,000 tokens, where a budget of 8,192 tokens a batch makes at least 3',
    )
    expect(budget.missingSign(true, ev({ esm2Batches: 1 }))).toBeNull()
    expect(budget.missingSign(true, ev({ esm2Tokens: null }))).toMatch(/gives no 'tokens'/)
  })
})

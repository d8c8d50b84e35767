/**
 * The reference pipeline's optimization switches and where refpipe reads them (reference-pipeline/README.md):
 * - packing, `VIRNUCPRO_DISABLE_PACKING=true` off: read on the v2.0 path only, as VirNucPro reads it
 *   (refpipe/encode_stage.py), so its arms pass `--parallel`. Off, the main process says so in one line and the Batch
 *   lines keep their pack eff; on, Batch lines and no such line.
 * - precision, `--precision fp16|fp32`: read on every path (refpipe/devices.py); the CPU runs fp32 only, so it is
 *   not measured there. The sign is the dtype of every `ESM-2 ready` line.
 * - token budget, `--esm-batch-size` / `--dnabert-batch-size`: read on every path (refpipe/batching.py); no line
 *   names it, so the sign is the batch count it allows: a batch is at most its budget of padded tokens, so a run makes
 *   at least ceil(ESM-2 tokens / budget) batches (an 8k arm run at 32k makes too few).
 */
import type { SwitchEvidence } from './evidence.ts'
import { esm2BuiltIn, esm2OnV2, packedBatches } from './signs.ts'
import { type OptimizationSwitch, readNowhere, readOn, side } from './switch.ts'

const PACKING = 'VIRNUCPRO_DISABLE_PACKING'
const SMALL_BUDGET_TOKENS = 8192
const LARGE_BUDGET_TOKENS = 32_768

const n = (x: number) => x.toLocaleString('en-US')
const budget = (tokens: number) => side(['--esm-batch-size', `${tokens}`, '--dnabert-batch-size', `${tokens}`])

/** At least ceil(tokens / budget) ESM-2 batches. */
function batchesWithin(e: SwitchEvidence, budgetTokens: number): string | null {
  if (e.esm2BatchLines === 0) return 'no ESM-2 Batch line to count its batches by'
  if (e.esm2Tokens === null) return "the ESM-2 end line gives no 'tokens' to hold the batches against"
  const least = Math.ceil(e.esm2Tokens / budgetTokens)
  return e.esm2Batches >= least
    ? null
    : `${e.esm2Batches} ESM-2 batch${e.esm2Batches === 1 ? '' : 'es'} for ${n(e.esm2Tokens)} tokens, where a budget of ${n(budgetTokens)} tokens a batch makes at least ${least}`
}

export const REFERENCE_SWITCHES: readonly OptimizationSwitch[] = [
  {
    name: 'packing',
    offName: 'no packing',
    on: side(),
    off: side([], { [PACKING]: 'true' }),
    path: () => readOn(['--parallel']),
    missingSign: (on, e) => {
      const v2 = esm2OnV2(e, PACKING)
      if (v2) return v2
      if (!on)
        return e.packingDisabled
          ? null
          : "no 'sequence packing disabled' line: the pipeline never said it read the switch"
      return e.packingDisabled ? 'the log says sequence packing was disabled' : packedBatches(e)
    },
  },
  {
    name: 'fp16',
    offName: 'fp32',
    on: side(['--precision', 'fp16']),
    off: side(['--precision', 'fp32']),
    path: (_gpuCount, device) =>
      device === 'cpu' ? readNowhere("the reference pipeline's CPU path runs fp32 only") : readOn(),
    missingSign: (on, e) => esm2BuiltIn(e, on ? 'float16' : 'float32'),
  },
  {
    name: '32k token budget',
    offName: '8k tokens',
    on: budget(LARGE_BUDGET_TOKENS),
    off: budget(SMALL_BUDGET_TOKENS),
    path: () => readOn(),
    missingSign: (on, e) => batchesWithin(e, on ? LARGE_BUDGET_TOKENS : SMALL_BUDGET_TOKENS),
  },
]

/**
 * VirNucPro's optimization switches and where its code reads them (virnucpro-broad at a8d3e4b):
 * - packing, `VIRNUCPRO_DISABLE_PACKING=true` off: read by the v2.0 async inference alone (pipeline/async_inference.py
 *   `_run_inference`), so its arms pass `--parallel` (one GPU included: `--parallel --gpus 0` is v2.0). Off, VirNucPro
 *   logs nothing of its own and its Batch lines keep their pack eff (the collator still packs; the model call runs
 *   padded): the ESM-2 stage on v2.0, the switch's one reader, is the sign. On, its Batch lines must show (a v2 worker
 *   below 2,000 sequences packs only in its final flush and logs none).
 * - fp16, `VIRNUCPRO_DISABLE_FP16=1` off: read where ESM-2 is built on either architecture (models/esm2_flash.py
 *   load_esm2_model through utils/precision.py, v1.0's per-file builds and v2.0's workers); the sign is the dtype
 *   of every `ESM-2 ready` line.
 * - CUDA streams, `--cuda-streams/--no-cuda-streams`: handed only to the multi-GPU worker pools (pipeline/prediction.py
 *   `queue_manager.process_files(enable_streams=...)`): DNABERT-S on 2+ GPUs with `--parallel` (ESM-2 too with
 *   `--v1-fallback`); the v2.0 ESM-2 workers build their runner with streams on whatever it says, and one GPU has no
 *   pool. Not measured on 1 GPU; the sign is `Using N GPUs for DNABERT-S extraction` and the CLI's `CUDA streams:` line.
 * - `--persistent-models` acts on the same multi-GPU pools only (profile-configs.ts persistentModels).
 */
import { esm2BuiltIn, esm2OnV2, packedBatches } from './signs.ts'
import { type OptimizationSwitch, readNowhere, readOn, side } from './switch.ts'

const PACKING = 'VIRNUCPRO_DISABLE_PACKING'

export const VIRNUCPRO_SWITCHES: readonly OptimizationSwitch[] = [
  {
    name: 'packing',
    offName: 'no packing',
    on: side(),
    off: side([], { [PACKING]: 'true' }),
    path: () => readOn(['--parallel']),
    missingSign: (on, e) =>
      esm2OnV2(e, PACKING) ??
      (on ? packedBatches(e, ' (a v2 worker below 2,000 sequences logs none: give the matrix a larger input)') : null),
  },
  {
    name: 'fp16',
    offName: 'fp32',
    on: side(),
    off: side([], { VIRNUCPRO_DISABLE_FP16: '1' }),
    path: () => readOn(),
    missingSign: (on, e) => esm2BuiltIn(e, on ? 'float16' : 'float32'),
  },
  {
    name: 'cuda streams',
    offName: 'no streams',
    on: side(['--cuda-streams']),
    off: side(['--no-cuda-streams']),
    path: (gpuCount, device) =>
      device === 'cpu'
        ? readNowhere('VirNucPro hands --cuda-streams on only where CUDA is')
        : gpuCount < 2
          ? readNowhere(
              'VirNucPro reads --cuda-streams only in its multi-GPU worker pools (DNABERT-S with --parallel on 2 or more GPUs): on 1 GPU no path reads it',
            )
          : readOn(['--parallel']),
    missingSign: (on, e) => {
      if (e.dnabertGpus === null || e.dnabertGpus < 2)
        return "no 'Using N GPUs for DNABERT-S extraction' line: the multi-GPU DNABERT-S workers, the one reader of --cuda-streams here, did not run"
      const want = on ? 'enabled' : 'disabled'
      return e.cudaStreams === want
        ? null
        : `the CLI logged 'CUDA streams: ${e.cudaStreams ?? '(no line)'}', not ${want}`
    },
  },
]

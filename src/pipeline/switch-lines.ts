/**
 * The lines an optimization switch leaves in a run's log, beyond the stage, batch and worker lines the log parser reads
 * (events.ts): what e2e's optimization matrix checks before it believes an arm ran what its label says
 * (engine/optimization-matrix). Each is the pipeline's own line, VirNucPro's and the reference pipeline's alike:
 * - `ESM-2 ready: ...dtype=float16)`: the precision ESM-2 was built in (VirNucPro's esm2_flash.py prints its wrapper,
 *   whose repr ends with its dtype; refpipe prints its encoder the same way), one per model build;
 * - `ESM-2: sequence packing disabled (VIRNUCPRO_DISABLE_PACKING=true) ...`: the reference pipeline read the packing
 *   switch on its v2.0 path (VirNucPro prints nothing when it reads it);
 * - `  CUDA streams: enabled|disabled`: VirNucPro's CLI read `--cuda-streams/--no-cuda-streams`;
 * - `Using N GPUs for DNABERT-S extraction`: VirNucPro's multi-GPU DNABERT-S workers ran, the one place on a v2.0
 *   run that hands them the streams switch (pipeline/prediction.py).
 * Pure over lines; `switchLinesOfLog` reads a stored log.
 */
import { logFileLines } from './log-file-lines.ts'
import { splitLogLine } from './log-line.ts'

export interface SwitchLines {
  /** The dtype named by each `ESM-2 ready:` line, in order (`float16`, `float32`, `bfloat16`). */
  esm2Dtypes: string[]
  /** Whether the pipeline said it runs ESM-2 without sequence packing. */
  packingDisabled: boolean
  /** The CLI's `CUDA streams:` line; null without one. */
  cudaStreams: 'enabled' | 'disabled' | null
  /** GPUs of the `Using N GPUs for DNABERT-S extraction` line; null without one. */
  dnabertGpus: number | null
}

const READY_DTYPE = /^ESM-2 ready: .*\bdtype=([A-Za-z0-9_]+)/
const PACKING_DISABLED = /^ESM-2: sequence packing disabled\b/
const CUDA_STREAMS = /^\s*CUDA streams: (enabled|disabled)\s*$/
const DNABERT_GPUS = /^Using (\d+) GPUs for DNABERT-S extraction\s*$/

/** The switch lines among `lines` (raw log lines, prefix and all). */
export function readSwitchLines(lines: Iterable<string>): SwitchLines {
  const found: SwitchLines = { esm2Dtypes: [], packingDisabled: false, cudaStreams: null, dnabertGpus: null }
  for (const raw of lines) {
    const { message } = splitLogLine(raw)
    const dtype = READY_DTYPE.exec(message)
    if (dtype) found.esm2Dtypes.push(dtype[1]!)
    else if (PACKING_DISABLED.test(message)) found.packingDisabled = true
    else {
      const streams = CUDA_STREAMS.exec(message)
      if (streams) found.cudaStreams = streams[1] as 'enabled' | 'disabled'
      const gpus = DNABERT_GPUS.exec(message)
      if (gpus) found.dnabertGpus = Number(gpus[1])
    }
  }
  return found
}

/**
 * The switch lines of a stored run log (the runner's `target.log`).
 * @throws the file system error when the log cannot be read.
 */
export function switchLinesOfLog(path: string): SwitchLines {
  return readSwitchLines(logFileLines(path))
}

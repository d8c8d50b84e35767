/**
 * The architecture a pipeline says it runs (issue 56): VirNucPro logs one line before its stages,
 * `Architecture: v2.0 hybrid`, `Architecture: v1.0 (single-GPU or non-parallel mode)` or
 * `Architecture: v1.0 (--v1-fallback, all stages use legacy multi-worker)` (its `cli/predict.py`; the reference
 * pipeline the same words). What ran is read from here, never assumed from the arguments: `--gpus 0` runs v1.0, a
 * list of GPUs turns `--parallel` and so v2.0 on, and a setting may switch it either way.
 */

/** The architectures a configuration may ask for. */
export type Architecture = 'v1.0' | 'v2.0'

export const ARCHITECTURES: readonly Architecture[] = ['v1.0', 'v2.0']

/** What a run's log said: the version and the line itself (as the record keeps it, for a refusal to quote). */
export interface ArchitectureSeen {
  architecture: string
  line: string
}

const LINE = /^Architecture: (v\d+(?:\.\d+)*)\b/

/** The architecture a log message names (the message after its prefix), or null for any other line. */
export function architectureOf(message: string): ArchitectureSeen | null {
  const m = LINE.exec(message.trim())
  return m ? { architecture: m[1]!, line: message.trim() } : null
}

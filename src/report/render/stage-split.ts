/**
 * A GPU stage as fixed cost and steady state, in the bottleneck report's stage rows (bottleneck-capacity.ts): the
 * start-up before the GPU's first work, the rest of the stage and its utilization, and where a capacity record fitted
 * the configuration, the stage's fixed and per-sequence parts. Raw text: the table helpers escape.
 */
import type { BottleneckGroup, StageShare } from '../analyses/bottleneck.ts'
import { fmtMs, fmtPct } from './format.ts'

export const SPLIT_HEAD = [
  "fixed: start-up before the GPU's first work",
  'steady state',
  'steady util',
  'size model: fixed + per sequence',
]

/** The four cells of SPLIT_HEAD; empty for a stage that is not a GPU stage, `n/a` where a reading is missing. */
export function splitCells(s: StageShare): string[] {
  if (!s.gpuStage) return ['', '', '', '']
  const model = s.sizeModel
  const parts =
    model?.fixedMs && model.msPerSequence
      ? `${fmtMs(model.fixedMs.value)} + ${model.msPerSequence.value.toFixed(3)} ms/sequence`
      : 'n/a'
  return [
    s.startupMs === null ? 'n/a' : fmtMs(s.startupMs),
    s.steadyMs === null ? 'n/a' : fmtMs(s.steadyMs),
    fmtPct(s.steadyUtilPct),
    parts,
  ]
}

/** ` Size model: capacity record R (configuration C).` for the groups whose stages have one; else empty. */
export function sizeModelSource(g: BottleneckGroup): string {
  const sources = new Set(
    g.stages.flatMap((s) => (s.sizeModel ? [`${s.sizeModel.recordId} (${s.sizeModel.configuration})`] : [])),
  )
  return sources.size ? ` Size model parts from capacity record ${[...sources].join(', ')}.` : ''
}

/**
 * The end-to-end projection of a measured run to M input sequences. The ESM-2 stage (the one that dominates, and the
 * only one with batch progress lines) is fitted as fixed cost + steady rate from its batch events (src/measure
 * fitProjection); every other stage is taken as proportional to the input (its measured time scaled by M / N), which
 * is pessimistic for stages with a fixed model-build cost. The CI covers batch-to-batch variation of ESM-2 only.
 */

import type { Thresholds } from '../config/thresholds.ts'
import {
  createRandomSource,
  fitProjection,
  type ProgressEvent,
  type ProjectedTime,
  type ProjectionModel,
  projectTo,
} from '../measure/index.ts'
import type { RunObservation } from './observe-run.ts'
import { stageDurationMs } from './stage-metrics.ts'

const ESM2 = 'ESM-2 Feature Extraction'

export interface E2eProjection {
  fromRun: string
  inputSequences: number
  esm2: {
    fixedMs: number
    fixedCi: { low: number; high: number }
    ratePerS: number
    rateCi: { low: number; high: number }
    eventsUsed: number
  }
  /** Time of all other stages per input sequence, added to the ESM-2 rate. */
  restMsPerSequence: number
  projections: ProjectedTime[]
}

export type ProjectionOutcome =
  | { state: 'projected'; projection: E2eProjection }
  | { state: 'not-projected'; reason: string }

/** ESM-2 batches as progress in input sequences, on the ESM-2 stage's clock; workers' progress summed. */
export function progressEvents(o: RunObservation, inputSequences: number): ProgressEvent[] {
  const start = o.measured.run.stages.find((s) => s.name === ESM2)?.startMs ?? 0
  const done = new Map<number, number>()
  const total = new Map<number, number>()
  const events: ProgressEvent[] = []
  for (const b of o.esm2Batches) {
    done.set(b.worker ?? -1, b.done)
    total.set(b.worker ?? -1, b.total)
    const proteins = [...done.values()].reduce((a, v) => a + v, 0)
    const allProteins = [...total.values()].reduce((a, v) => a + v, 0)
    const last = events.at(-1)
    const point = { tMs: b.atMs - start, done: (proteins * inputSequences) / Math.max(1, allProteins) }
    if (!last || (point.done > last.done && point.tMs >= last.tMs)) events.push(point)
  }
  return events
}

function withRest(model: ProjectionModel, restMsPerSequence: number): ProjectionModel {
  const shift = (f: { fixedMs: number; msPerSequence: number }) => ({
    ...f,
    msPerSequence: f.msPerSequence + restMsPerSequence,
  })
  return { ...model, fit: shift(model.fit), replicates: model.replicates.map(shift) }
}

/** Projects `o` (a completed run on `inputSequences` sequences) to the thresholds' typical and production sizes. */
export function projectRun(o: RunObservation, t: Thresholds, seed: string): ProjectionOutcome {
  const run = o.measured.run
  const inputSequences = run.summary?.sequencesProcessed ?? null
  if (!inputSequences) return { state: 'not-projected', reason: 'the run printed no sequence count' }
  const events = progressEvents(o, inputSequences)
  if (events.length < 4) return { state: 'not-projected', reason: `${events.length} ESM-2 batch event(s); need >= 4` }
  const model = fitProjection(events, { random: createRandomSource(seed) })
  const esmMs = stageDurationMs(run, ESM2) ?? 0
  const restMsPerSequence = Math.max(0, run.wallMs - esmMs) / inputSequences
  const combined = withRest(model, restMsPerSequence)
  const targets = [t.perf01.typicalSequences, t.perf01.productionSequences]
  const projections = targets.map((sequences) =>
    projectTo(combined, { sequences, targetMs: t.perf01.targetMs, tolerance: t.perf01.tolerance }),
  )
  return {
    state: 'projected',
    projection: {
      fromRun: o.measured.label,
      inputSequences,
      esm2: {
        fixedMs: model.fixedMs.estimate,
        fixedCi: model.fixedMs.ci,
        ratePerS: model.ratePerSecond.estimate,
        rateCi: model.ratePerSecond.ci,
        eventsUsed: model.eventsUsed,
      },
      restMsPerSequence,
      projections,
    },
  }
}

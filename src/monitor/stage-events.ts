/**
 * Stage tags from the target's log stream: a `stage-start` event makes that stage current, its `stage-end` clears
 * it (time between stages is untagged, not charged to the stage before), and the pipeline's closing summary gives
 * the sequence count for joules per sequence. Feed it the runner's `onEvent`.
 */
import type { TargetEvent } from '../pipeline/events.ts'

export interface StageTagger {
  onEvent(event: TargetEvent): void
  /** `Sequences processed` from the pipeline summary, once it has been seen. */
  sequenceCount(): number | null
}

export function createStageTagger(monitor: { setStage(stage: string | null): void }): StageTagger {
  let current: string | null = null
  let sequences: number | null = null
  return {
    onEvent(event) {
      if (event.type === 'stage-start') {
        current = event.name
        monitor.setStage(event.name)
      } else if (event.type === 'stage-end' && event.name === current) {
        current = null
        monitor.setStage(null)
      } else if (event.type === 'summary') {
        sequences = event.summary.sequencesProcessed
      }
    },
    sequenceCount: () => sequences,
  }
}

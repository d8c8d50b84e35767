/**
 * Which stage was current at a given time: a stage starts at its change's tMs and lasts until the next change
 * (`[start, next start)`). Used by the sampler to stamp samples and by the summary to cut windows.
 */
export interface StageChange {
  tMs: number
  stage: string | null
}

export interface StageWindow {
  stage: string | null
  startMs: number
  /** Exclusive. */
  endMs: number
}

export class StageTimeline {
  readonly #changes: StageChange[] = []

  /** Adds a change; changes may arrive out of order (they are kept sorted by time, ties in arrival order). */
  add(change: StageChange): void {
    let at = this.#changes.length
    while (at > 0 && (this.#changes[at - 1] as StageChange).tMs > change.tMs) at--
    this.#changes.splice(at, 0, change)
  }

  /** The stage current at `tMs` (null before the first change). */
  at(tMs: number): string | null {
    for (let i = this.#changes.length - 1; i >= 0; i--) {
      const change = this.#changes[i] as StageChange
      if (change.tMs <= tMs) return change.stage
    }
    return null
  }

  /** Drops changes that can no longer decide a sample taken at or after `tMs` (keeps the one current at `tMs`). */
  forgetBefore(tMs: number): void {
    let keepFrom = 0
    for (let i = 0; i < this.#changes.length; i++) if ((this.#changes[i] as StageChange).tMs <= tMs) keepFrom = i
    this.#changes.splice(0, keepFrom)
  }

  /** Windows from `startMs` to `endMs` (exclusive), an untagged (null) window first when the first change is later. */
  windows(startMs: number, endMs: number): StageWindow[] {
    const windows: StageWindow[] = []
    let current: StageChange = { tMs: startMs, stage: null }
    for (const change of this.#changes) {
      if (change.tMs <= startMs) {
        current = { tMs: startMs, stage: change.stage }
        continue
      }
      if (change.tMs >= endMs) break
      if (change.tMs > current.tMs) windows.push({ stage: current.stage, startMs: current.tMs, endMs: change.tMs })
      current = change
    }
    if (endMs > current.tMs) windows.push({ stage: current.stage, startMs: current.tMs, endMs })
    return windows
  }
}

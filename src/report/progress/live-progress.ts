/**
 * Live progress for long runs: stage, sequences done/total, tokens/s, GPU utilization, ETA, fed from the runner's
 * events (onEvent) and the monitor (onGpuUtil). On a TTY one line is redrawn in place on every update; elsewhere
 * (CI logs) a plain line is written every `intervalMs`, and only when something changed.
 */

import type { TargetEvent } from '../../pipeline/events.ts'
import { escapeControls } from '../../platform/one-line.ts'

export interface ProgressState {
  stage: string | null
  done: number | null
  total: number | null
  tokensPerS: number | null
  sequencesPerS: number | null
  gpuUtilPct: number | null
  eta: string | null
}

export const EMPTY_PROGRESS: ProgressState = {
  stage: null,
  done: null,
  total: null,
  tokensPerS: null,
  sequencesPerS: null,
  gpuUtilPct: null,
  eta: null,
}

/** Pure: the state after one runner event. */
export function applyEvent(state: ProgressState, event: TargetEvent): ProgressState {
  switch (event.type) {
    case 'stage-start':
      return { ...EMPTY_PROGRESS, stage: event.name, gpuUtilPct: state.gpuUtilPct }
    case 'batch':
      return {
        ...state,
        done: event.done,
        total: event.total,
        tokensPerS: event.tokensPerS,
        sequencesPerS: event.sequencesPerS,
        eta: event.eta,
      }
    case 'stage-end':
      return { ...state, stage: `${event.name} (done)`, eta: null }
    default:
      return state
  }
}

const grouped = (n: number) => Math.round(n).toLocaleString('en-US')

/** Pure: one line, e.g. `ESM-2 Feature Extraction | 1,200/5,000 seq (24.0%) | 16,474 tok/s | GPU 87% | ETA 00:03:12`. */
export function formatProgress(state: ProgressState): string {
  const parts = [state.stage ?? 'starting']
  if (state.done !== null && state.total !== null) {
    const pct = state.total > 0 ? ` (${((state.done / state.total) * 100).toFixed(1)}%)` : ''
    parts.push(`${grouped(state.done)}/${grouped(state.total)} seq${pct}`)
  }
  if (state.tokensPerS !== null) parts.push(`${grouped(state.tokensPerS)} tok/s`)
  if (state.sequencesPerS !== null) parts.push(`${state.sequencesPerS.toFixed(1)} seq/s`)
  if (state.gpuUtilPct !== null) parts.push(`GPU ${state.gpuUtilPct.toFixed(0)}%`)
  if (state.eta !== null) parts.push(`ETA ${state.eta}`)
  return parts.join(' | ')
}

export interface LiveProgressOptions {
  write: (text: string) => void
  isTty: boolean
  /** Non-TTY line period. Default 10 s. */
  intervalMs?: number
}

export interface LiveProgress {
  onEvent(event: TargetEvent): void
  onGpuUtil(pct: number): void
  /** Current state (for tests and callers that draw it themselves). */
  state(): ProgressState
  /** Stops the ticker; on a TTY ends the redrawn line with a newline. */
  stop(): void
}

export function createLiveProgress(options: LiveProgressOptions): LiveProgress {
  let state = EMPTY_PROGRESS
  let lastWritten = ''
  let drawn = false
  const draw = () => {
    // The stage name is the target's text: one line, controls escaped (a `\r::error` in it is no workflow command).
    const line = escapeControls(formatProgress(state))
    if (options.isTty) {
      options.write(`\r\x1b[2K${line}`)
      drawn = true
    } else if (line !== lastWritten) options.write(`${line}\n`)
    lastWritten = line
  }
  const timer = options.isTty ? null : setInterval(draw, options.intervalMs ?? 10_000)
  timer?.unref()
  const update = (next: ProgressState) => {
    state = next
    if (options.isTty) draw()
  }
  return {
    onEvent: (event) => update(applyEvent(state, event)),
    onGpuUtil: (pct) => update({ ...state, gpuUtilPct: pct }),
    state: () => state,
    stop: () => {
      if (timer) clearInterval(timer)
      if (options.isTty && drawn) options.write('\n')
    },
  }
}

/**
 * A run's stage progress read back from its pipeline log, for records written before runs kept their progress lines
 * (StageProgress in the record), or before they kept every source of them. The log has only the pipeline's own
 * timestamps, whole seconds on VirNucPro's main process (`%H:%M:%S`; its workers and Python's asctime may add `,mmm`),
 * so a slope read from it is coarser than one from the runner's receive times: a fallback, which the refit names. A
 * tqdm redraw has no stamp: it is timed by its bar's first redraw (the last stamp before it) plus tqdm's own elapsed
 * seconds, which keep counting where no log line comes between two redraws.
 */

import type { TargetEvent, TqdmEvent } from '../pipeline/events.ts'
import { splitLogLine } from '../pipeline/log-line.ts'
import { createLogParser } from '../pipeline/log-parser.ts'
import type { StageProgress } from '../results/schema/index.ts'
import { createProgressCollector } from './run-progress.ts'

const STAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:[,.](\d{1,6}))?$/

/** A log timestamp as ms on its own clock (no time zone: only differences are used); null when it is not one. */
export function logStampMs(stamp: string | null): number | null {
  const m = stamp === null ? null : STAMP.exec(stamp)
  if (!m) return null
  const [, y, mo, d, h, mi, s, frac] = m
  const fraction = frac ? Number(`0.${frac}`) : 0
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) + fraction * 1000
}

/** Times each bar's redraws on the log's clock: its first redraw's time (`nowMs`) plus tqdm's elapsed seconds. */
function createBarClock() {
  const bars = new Map<string, { startMs: number; done: number; elapsedS: number }>()
  return (event: TqdmEvent, nowMs: number): TargetEvent => {
    const key = event.label ?? ''
    const bar = bars.get(key)
    // A count or an elapsed time that goes back is a new bar of the same label.
    const same = bar && event.done >= bar.done && event.elapsedS >= bar.elapsedS
    const startMs = same ? bar.startMs : nowMs - event.elapsedS * 1000
    bars.set(key, { startMs, done: event.done, elapsedS: event.elapsedS })
    return { ...event, atMs: startMs + event.elapsedS * 1000 }
  }
}

/** Every stage's progress series in a log's lines, on the log's own clock (ms from its first stamped line). */
export function progressFromLog(lines: Iterable<string>): StageProgress[] {
  const parser = createLogParser()
  const collector = createProgressCollector()
  const barTime = createBarClock()
  let stage: string | null = null
  let firstMs: number | null = null
  let lastMs = 0
  for (const raw of lines) {
    // A bar a log line is glued to was drawn before that line's stamp: it is timed by the stamp before.
    const beforeMs = lastMs
    const stampMs = logStampMs(splitLogLine(raw).timestamp)
    if (stampMs !== null) {
      firstMs ??= stampMs
      lastMs = stampMs - firstMs
    }
    for (const read of parser.push(raw, lastMs)) {
      const event = read.type === 'tqdm' ? barTime(read, beforeMs) : read
      collector.push(event, stage)
      if (event.type === 'stage-start') stage = event.name
      else if (event.type === 'stage-end') stage = null
    }
  }
  return collector.series()
}

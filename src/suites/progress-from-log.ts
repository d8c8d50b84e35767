/**
 * A run's stage progress read back from its pipeline log, for records written before runs kept their progress lines
 * (StageProgress in the record). The log has only the pipeline's own timestamps, whole seconds on VirNucPro's main
 * process (`%H:%M:%S`; its workers and Python's asctime may add `,mmm`), so a slope read from it is coarser than one
 * from the runner's receive times: a fallback, which the refit names.
 */
import type { StageProgress } from '../results/schema/index.ts'
import { splitLogLine } from '../target/log-line.ts'
import { createLogParser } from '../target/log-parser.ts'
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

/** Every stage's progress series in a log's lines, on the log's own clock (ms from its first stamped line). */
export function progressFromLog(lines: Iterable<string>): StageProgress[] {
  const parser = createLogParser()
  const collector = createProgressCollector()
  let stage: string | null = null
  let firstMs: number | null = null
  let lastMs = 0
  for (const raw of lines) {
    const stampMs = logStampMs(splitLogLine(raw).timestamp)
    if (stampMs !== null) {
      firstMs ??= stampMs
      lastMs = stampMs - firstMs
    }
    for (const event of parser.push(raw, lastMs)) {
      collector.push(event, stage)
      if (event.type === 'stage-start') stage = event.name
      else if (event.type === 'stage-end') stage = null
    }
  }
  return collector.series()
}

import type { StageExtraValue, SummaryBlock, SummaryStage } from './events.ts'
import { parseGroupedNumber } from './log-line.ts'

/**
 * Reads VirNucPro's closing `PIPELINE SUMMARY` block (docs/UPSTREAM.md) one message at a time. The block is only
 * reported once its closing rule arrives, so a log cut off mid-block (killed run) never yields a half summary.
 */
export interface SummaryReader {
  /** Feeds one message (log prefix already removed). Returns true when the line belonged to a summary block. */
  push(message: string): boolean
  /** The completed block after the closing rule, once; then null again. */
  take(): SummaryBlock | null
}

type State = 'idle' | 'rule' | 'title' | 'body'
type Section = 'top' | 'stages' | 'metrics'

const RULE = /^={40,}$/
const TOTAL = /^Total wall time: (\d+:\d{2}:\d{2}) \((\d+(?:\.\d+)?)s\)$/
const STAGE = /^ {2}(\d+)\. (.+?) \.+ {2}(?:\s*(\d+\.\d)s \(\s*(\d+\.\d)%\)|skipped)$/
const BOTTLENECK = /(.+?) \((\d+)%\)(?:, |$)/gy
const METRIC = /^ {2}([^:]+): (.+)$/

interface Draft {
  total: { hms: string; seconds: number } | null
  stages: SummaryStage[]
  bottlenecks: { name: string; percent: number }[]
  metrics: Record<string, StageExtraValue>
  section: Section
}

function newDraft(): Draft {
  return { total: null, stages: [], bottlenecks: [], metrics: {}, section: 'top' }
}

function parseBottlenecks(list: string): { name: string; percent: number }[] | null {
  const found: { name: string; percent: number }[] = []
  BOTTLENECK.lastIndex = 0
  let consumed = 0
  for (let m = BOTTLENECK.exec(list); m; m = BOTTLENECK.exec(list)) {
    found.push({ name: m[1]!, percent: Number(m[2]) })
    consumed = BOTTLENECK.lastIndex
  }
  return consumed === list.length ? found : null
}

function readBodyLine(draft: Draft, message: string): void {
  const total = TOTAL.exec(message)
  if (total) {
    draft.total = { hms: total[1]!, seconds: Number(total[2]) }
    return
  }
  if (message === 'Stages:') draft.section = 'stages'
  else if (message === 'Key metrics:') draft.section = 'metrics'
  else if (message.startsWith('Bottlenecks: ')) draft.bottlenecks = parseBottlenecks(message.slice(13)) ?? []
  else if (draft.section === 'stages') {
    const m = STAGE.exec(message)
    if (m)
      draft.stages.push({
        index: Number(m[1]),
        name: m[2]!,
        durationS: m[3] === undefined ? null : Number(m[3]),
        percent: m[4] === undefined ? null : Number(m[4]),
      })
  } else if (draft.section === 'metrics') {
    const m = METRIC.exec(message)
    if (m) draft.metrics[m[1]!] = parseGroupedNumber(m[2]!) ?? m[2]!
  }
}

function finish(draft: Draft): SummaryBlock | null {
  if (!draft.total) return null
  const sequences = draft.metrics['Sequences processed']
  return {
    totalWallS: draft.total.seconds,
    totalWallHms: draft.total.hms,
    stages: draft.stages,
    bottlenecks: draft.bottlenecks,
    metrics: draft.metrics,
    sequencesProcessed: typeof sequences === 'number' ? sequences : null,
  }
}

/** Creates a reader for one log stream. */
export function createSummaryReader(): SummaryReader {
  let state: State = 'idle'
  let draft = newDraft()
  let done: SummaryBlock | null = null
  const push = (message: string): boolean => {
    if (state === 'body') {
      if (RULE.test(message)) {
        done = finish(draft) ?? done
        state = 'idle'
      } else readBodyLine(draft, message)
      return true
    }
    if (state === 'rule' && message === 'PIPELINE SUMMARY') state = 'title'
    else if (state === 'title' && RULE.test(message)) {
      state = 'body'
      draft = newDraft()
    } else {
      state = RULE.test(message) ? 'rule' : 'idle'
      return state === 'rule'
    }
    return true
  }
  const take = () => {
    const block = done
    done = null
    return block
  }
  return { push, take }
}

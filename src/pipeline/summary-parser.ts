import type { StageExtraValue, SummaryBlock, SummaryStage } from './events.ts'
import { type ReadProblems, readGroupedValue, readNumber } from './log-line.ts'

/**
 * Reads VirNucPro's closing `PIPELINE SUMMARY` block (docs/UPSTREAM.md) one message at a time. The block is only
 * reported once its closing rule arrives, so a log cut off mid-block (killed run) never yields a half summary.
 */
export interface SummaryReader {
  /**
   * Feeds one message (log prefix already removed). Returns true when the line belonged to a summary block. A number
   * in it no double holds is left out (a total the block cannot do without: no block), with a problem in `problems`.
   * `logged`: the line carried a log prefix.
   */
  push(message: string, problems?: ReadProblems, logged?: boolean): boolean
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

function parseBottlenecks(list: string, problems: ReadProblems): { name: string; percent: number }[] | null {
  const found: { name: string; percent: number }[] = []
  BOTTLENECK.lastIndex = 0
  let consumed = 0
  for (let m = BOTTLENECK.exec(list); m; m = BOTTLENECK.exec(list)) {
    const percent = readNumber(m[2]!, `bottleneck ${m[1]!} percent`, problems)
    if (percent !== null) found.push({ name: m[1]!, percent })
    consumed = BOTTLENECK.lastIndex
  }
  return consumed === list.length ? found : null
}

function readBodyLine(draft: Draft, message: string, problems: ReadProblems): void {
  const total = TOTAL.exec(message)
  if (total) {
    const seconds = readNumber(total[2]!, 'total wall time', problems)
    if (seconds !== null) draft.total = { hms: total[1]!, seconds }
    return
  }
  if (message === 'Stages:') draft.section = 'stages'
  else if (message === 'Key metrics:') draft.section = 'metrics'
  else if (message.startsWith('Bottlenecks: ')) draft.bottlenecks = parseBottlenecks(message.slice(13), problems) ?? []
  else if (draft.section === 'stages') {
    const m = STAGE.exec(message)
    const index = m && readNumber(m[1]!, 'summary stage number', problems)
    if (m && index !== null) {
      const what = `summary ${m[2]!}`
      draft.stages.push({
        index,
        name: m[2]!,
        durationS: m[3] === undefined ? null : readNumber(m[3], `${what} duration`, problems),
        percent: m[4] === undefined ? null : readNumber(m[4], `${what} percent`, problems),
      })
    }
  } else if (draft.section === 'metrics') {
    const m = METRIC.exec(message)
    const value = m && readGroupedValue(m[2]!, m[1]!, problems)
    if (m && value !== null) draft.metrics[m[1]!] = value
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
  // Whether the header's first rule came with a log prefix: a line without one (a tqdm bar redrawn on the same stream)
  // between the header's lines is then another writer's, passed over instead of ending the header.
  let headerLogged = false
  const push = (message: string, problems: ReadProblems = [], logged = false): boolean => {
    if ((state === 'rule' || state === 'title') && headerLogged && !logged) return false
    if (state === 'body') {
      if (RULE.test(message)) {
        done = finish(draft) ?? done
        state = 'idle'
      } else readBodyLine(draft, message, problems)
      return true
    }
    if (state === 'rule' && message === 'PIPELINE SUMMARY') state = 'title'
    else if (state === 'title' && RULE.test(message)) {
      state = 'body'
      draft = newDraft()
    } else {
      state = RULE.test(message) ? 'rule' : 'idle'
      headerLogged = logged
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

/**
 * The GitHub job summary: summary.md, whole when it fits GitHub's 1 MiB a step, else cut after the last whole line
 * that fits. A line boundary is never inside a table row nor inside a UTF-8 character ('\n' is one byte that no
 * multi-byte character contains); a code block left open by the cut is closed; a note says where it was cut and where
 * the full report is. Pure.
 */

/** Bytes GitHub accepts in one step's summary. */
export const STEP_SUMMARY_LIMIT_BYTES = 1024 * 1024

const FENCE = /^\s*(```|~~~)/

function cutNote(keptLines: number, totalLines: number, fullReport: string): string {
  return `\n_Cut here, after line ${keptLines} of ${totalLines}: a job summary holds 1 MiB. The full report is ${fullReport}._\n`
}

/** Whether the lines leave a fenced code block open. */
function openFence(lines: readonly string[]): boolean {
  return lines.filter((line) => FENCE.test(line)).length % 2 === 1
}

/**
 * @param fullReport where the whole summary is, as the note names it (`reports/summary.md in the job's artifacts`).
 * @returns `markdown` itself when it fits `limitBytes`; else its first whole lines, a closing fence when one is open,
 * and the note, together within `limitBytes`.
 */
export function stepSummaryOf(markdown: string, fullReport: string, limitBytes = STEP_SUMMARY_LIMIT_BYTES): string {
  const bytes = Buffer.from(markdown, 'utf8')
  if (bytes.length <= limitBytes) return markdown
  const lines = markdown.split('\n')
  const totalLines = markdown.endsWith('\n') ? lines.length - 1 : lines.length
  // Room for the note (its line count at its longest) and a closing fence.
  const reserve = Buffer.byteLength(cutNote(totalLines, totalLines, fullReport)) + 8
  const budget = Math.max(0, limitBytes - reserve)
  const end = bytes.lastIndexOf(0x0a, budget - 1)
  const kept = end < 0 ? [] : bytes.subarray(0, end).toString('utf8').split('\n')
  const fence = openFence(kept) ? ['```'] : []
  return `${[...kept, ...fence].join('\n')}\n${cutNote(kept.length, totalLines, fullReport)}`
}

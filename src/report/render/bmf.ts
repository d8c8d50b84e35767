/**
 * bench.bmf.json: Bencher Metric Format, `{ name: { measure: { value, lower_value?, upper_value? } } }`, one entry per
 * CI figure (measure `latency`, in ns: Bencher's built-in unit) and per PERF-02 row (measure `gpu-util-pct`).
 *
 * Written as JSON text entry by entry: a large run has ~2·10^5 names, and an object with that many keys is a hash
 * table that costs twice as much to fill and serialize as the text itself. A name that repeats (only duplicated record
 * IDs or benchmark names make one) is written twice; JSON.parse keeps its first position and last value, which is
 * what assigning the keys to an object one by one gave.
 */
import type { Report } from '../analyses/build.ts'
import { eachCiFigure, type Figure } from './ci-formats.ts'
import { ITEMS_PER_CHUNK } from './json-array.ts'

const NS_PER_MS = 1e6

/** A number as JSON.stringify writes it: finite values as JavaScript prints them, anything else as null. */
const num = (value: number) => (Number.isFinite(value) ? `${value}` : 'null')

function latencyEntry(f: Figure): string {
  const range =
    f.lowMs !== null && f.highMs !== null
      ? `,"lower_value":${num(f.lowMs * NS_PER_MS)},"upper_value":${num(f.highMs * NS_PER_MS)}`
      : ''
  return `${JSON.stringify(f.name)}:{"latency":{"value":${num(f.valueMs * NS_PER_MS)}${range}}}`
}

/** Entries joined ITEMS_PER_CHUNK at a time, so that each small entry string dies young (json-array.ts says why). */
function entryList(): { push(entry: string): void; text(): string } {
  const chunks: string[] = []
  let batch: string[] = []
  return {
    push(entry) {
      batch.push(entry)
      if (batch.length < ITEMS_PER_CHUNK) return
      chunks.push(batch.join(','))
      batch = []
    },
    text: () => [...chunks, ...(batch.length > 0 ? [batch.join(',')] : [])].join(','),
  }
}

/** The BMF file's text (compact, newline-terminated). `figures` replaces the report's CI figures (tests). */
export function bencherMetricsJson(report: Report, figures?: readonly Figure[]): string {
  const entries = entryList()
  if (figures) for (const f of figures) entries.push(latencyEntry(f))
  else eachCiFigure(report, (f) => entries.push(latencyEntry(f)))
  // A partial record's rows are provisional: kept out of the figures CI tracks.
  for (const r of report.perf02.rows)
    if (r.utilMeanPct !== null && !r.provisional)
      // Under each record's own name (one row may stand for several records sharing runs): names keep their history.
      for (const recordId of r.recordIds) {
        const name = JSON.stringify(`perf02/${recordId}/${r.group}/${r.stage}/gpu${r.gpu}`)
        entries.push(`${name}:{"gpu-util-pct":{"value":${num(r.utilMeanPct)}}}`)
      }
  return `{${entries.text()}}\n`
}

/**
 * The fleet section's tables as text, one place for summary.md and index.html: each table's head and the cells of a
 * row (raw text: the markdown table escapes, the HTML escapes and colours the verdict cells it names). Pure.
 */
import type { FleetReport } from '../analyses/fleet.ts'
import type { HostSummary } from '../analyses/fleet-host-summary.ts'
import type { HostRow, ModelRow } from '../analyses/fleet-hosts.ts'
import type { ShardRow, ShardRunReport } from '../analyses/fleet-shards.ts'
import { fmtCount, fmtWall } from './capacity-text.ts'
import { fmtJPerSeq, fmtPerf, fmtRelative, fmtSeqPerS, fmtTokPerS } from './fleet-text.ts'

/** The bad-node rule in one sentence: the legend under the host tables. */
export const BAD_NODE_RULE =
  'Bad node: among the hosts of one GPU model (3 or more) on one measurement, a host whose seq/s is outside the fleet spread (|modified z| > 3.5 against the median of the host medians; the scale is their MAD, never below the run-to-run sd), off the median by more than the regression threshold, with its own runs on that side. Fewer hosts: no verdict.'

export const SOURCE_HEAD = ['directory', 'run IDs', 'records', 'invalid files', 'copies left out', 'problem']
export const sourceCells = (s: FleetReport['sources'][number]) => [
  s.dir,
  s.runIds.join(', ') || '-',
  String(s.records),
  String(s.invalid),
  String(s.duplicates),
  s.problem ?? '',
]

export function projectionText(h: HostSummary): string {
  if (h.projections.length === 0) return 'no size model'
  return h.projections
    .map((p) => `${p.label}: ${fmtWall(p.wallMs)} (PERF-01 ${(p.perf01 ?? 'n/a').toUpperCase()})`)
    .join('; ')
}

export const HOST_HEAD = [
  'host',
  'GPU model',
  'records',
  'PERF-01',
  'PERF-02',
  'PERF-03',
  'projected production time',
  'bad node',
]
/** Cells 3-5 are PERF verdicts (`PASS (2)`), cell 7 the bad-node flag. */
export const hostCells = (h: HostSummary) => [
  h.host,
  h.gpuModel,
  `${h.records}${h.failed ? ` (${h.failed} failed)` : ''}`,
  fmtPerf(h.perf01),
  fmtPerf(h.perf02),
  fmtPerf(h.perf03),
  projectionText(h),
  h.badNodeIn.length ? `BAD NODE on ${h.badNodeIn.join('; ')}` : '-',
]

export const HOST_ROW_HEAD = [
  'host',
  'GPU model',
  'runs',
  'seq/s [95% CI]',
  'tok/s',
  'J/seq',
  'vs GPU model median',
  'bad node',
]
/** The bad-node verdict as a word: `FLAG (slower)`, `PASS`, `INCONCLUSIVE`. */
export const badNodeWord = (h: HostRow) =>
  h.badNode.verdict === 'flag' ? `FLAG (${h.badNode.direction})` : h.badNode.verdict.toUpperCase()
/** Cell 7 is the bad-node verdict and why. */
export const hostRowCells = (h: HostRow) => [
  h.host,
  h.gpuModel,
  String(h.runs),
  fmtSeqPerS(h.sequencesPerS),
  fmtTokPerS(h.tokensPerS),
  fmtJPerSeq(h.jPerSequence),
  fmtRelative(h.relativeToModel),
  `${badNodeWord(h)}: ${h.badNode.reason}`,
]

export const MODEL_HEAD = [
  'GPU model',
  'hosts',
  'runs',
  'seq/s, all runs',
  'host medians',
  'tok/s',
  'J/seq',
  'outside the spread',
]
export const modelCells = (m: ModelRow) => [
  m.gpuModel,
  String(m.hosts),
  String(m.runs),
  fmtSeqPerS(m.sequencesPerS),
  m.hostRange ? `${m.hostRange.low.toFixed(2)}-${m.hostRange.high.toFixed(2)}` : 'n/a',
  fmtTokPerS(m.tokensPerS),
  fmtJPerSeq(m.jPerSequence),
  [...m.badNodes.map((b) => `${b} (slower)`), ...m.faster.map((b) => `${b} (faster)`)].join(', ') || '-',
]

export const SHARD_HEAD = [
  'shard',
  'host',
  'GPU model',
  'state',
  'records',
  'runs',
  'wall [95% CI]',
  'seq/s',
  'size model',
]
/** Cell 3 is the record's state. */
export const shardCells = (s: ShardRow) => [
  String(s.index),
  s.host,
  s.gpuModel,
  s.state,
  fmtCount(s.records),
  String(s.runs),
  fmtWall(s.wallMs),
  fmtSeqPerS(s.sequencesPerS),
  s.modelProblem ?? 'fixed + per-sequence parts, with CI',
]

/** What is missing from a sharded run, and which records a newer one replaced. */
export const shardRunNotes = (r: ShardRunReport) => [
  ...(r.missing.length ? [`Missing: shard(s) ${r.missing.join(', ')} of ${r.count} have no record.`] : []),
  ...(r.replaced.length ? [`Replaced by a newer record of the same shard: ${r.replaced.join(', ')}.`] : []),
]

/** Measurements in first-seen order, with their host rows and GPU-model rows. */
export function byMeasurement(f: FleetReport): { measurement: string; hosts: HostRow[]; models: ModelRow[] }[] {
  return [...new Set(f.comparison.hosts.map((h) => h.measurement))].map((measurement) => ({
    measurement,
    hosts: f.comparison.hosts.filter((h) => h.measurement === measurement),
    models: f.comparison.models.filter((m) => m.measurement === measurement),
  }))
}

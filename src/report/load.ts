/**
 * Reads what the analyses need from disk: the records of one run directory, or of several merged (run directories, and
 * results roots holding run directories: many hosts' and runs' records in one report), the monitor series their runs
 * point to (`runs[].gpu.logPath`, relative paths resolved against the record's own directory), a baseline run, and a
 * history's trends (history-input.ts). Nothing here throws for a bad record, a missing log or an unusable history: bad
 * records come back as `invalid` (named, the rest merged), missing series as notes, the history as `unavailable`.
 */
import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { isAbsolute, join, resolve } from 'node:path'
import { withProvisionalAnalysis } from '../capacity/record-answer.ts'
import { readMonitorLog } from '../monitor/log-reader.ts'
import type { SampleRecord } from '../monitor/records.ts'
import { FileRefusedError } from '../platform/regular-file.ts'
import { combinedOutcome, readInvocations } from '../results/invocations.ts'
import { readRunDirectory } from '../results/partial-records.ts'
import { isRunId } from '../results/run-id.ts'
import type { MeasuredRun, ResultRecord } from '../results/schema/index.ts'
import { type HistoryLoadOptions, loadTrendsInput } from './history-input.ts'
import type { BenchmarkTaskResult, ReportInput, RunOutcome, SourceDir, StoredRun } from './input.ts'

export interface LoadOptions {
  /**
   * A run directory; or several directories to merge, each a run directory or a results root (its run-ID
   * subdirectories are read). Records of one run ID from several hosts may share a directory or be spread over several.
   */
  resultsDir: string | readonly string[] | null
  baselineDir?: string | null
  benchmarks?: BenchmarkTaskResult[]
  outcome?: RunOutcome
  /**
   * A rebuild from stored records (`virnucpro-bench report`): the benchmarks and how the run ended come from the
   * invocations the reporter stored beside the records (src/results/invocations.ts), unless given here.
   */
  rebuild?: boolean
  now?: Date
  /** A history database to draw trends from (a file name, or with lock waits); none when null or absent. */
  history?: string | HistoryLoadOptions | null
}

/**
 * The file a record's monitor log path names, read from `dir` (the record's own directory): a relative path resolves
 * there; an absolute one that no longer exists (the run directory was moved: a CI artifact downloaded, a node's results
 * copied to the submit host) is looked for at the same place under `dir`, after the path's run-ID segment.
 */
export function monitorLogFile(logPath: string, runId: string, dir: string): string {
  if (!isAbsolute(logPath)) return join(dir, logPath)
  if (existsSync(logPath)) return logPath
  const parts = logPath.split(/[\\/]/)
  const at = parts.lastIndexOf(runId)
  if (at < 0 || at === parts.length - 1) return logPath
  const moved = join(dir, ...parts.slice(at + 1))
  return existsSync(moved) ? moved : logPath
}

/** Samples of every monitor log the records name, read once each; the reason for each one that could not be read. */
export async function loadSeries(
  records: readonly ResultRecord[],
  dir: string,
): Promise<{ series: Map<string, SampleRecord[]>; notes: string[] }> {
  const series = new Map<string, SampleRecord[]>()
  const notes: string[] = []
  const files = new Map<string, string>()
  for (const r of records)
    for (const run of r.runs)
      if (run.gpu?.logPath && !files.has(run.gpu.logPath))
        files.set(run.gpu.logPath, monitorLogFile(run.gpu.logPath, r.provenance.runId, dir))
  for (const [logPath, file] of files) {
    try {
      const log = await readMonitorLog(file)
      series.set(
        logPath,
        log.records.filter((r): r is SampleRecord => r.kind === 'sample'),
      )
      if (log.truncatedTail) notes.push(`monitor log ${logPath}: last line cut off (monitor killed?), ignored`)
    } catch (error) {
      // The reason alone when the file was refused: its message repeats the path.
      const why = error instanceof FileRefusedError ? error.reason : (error as Error).message
      notes.push(`monitor log ${logPath}: not read (${why}); its charts are omitted`)
    }
  }
  return { series, notes }
}

async function readStored(dir: string): Promise<StoredRun> {
  // Partial records too: a run stopped mid-way is reported with the runs it kept, a capacity measurement with its
  // provisional answer refitted from them (capacity/record-answer.ts), so every report reads one answer.
  const { records, invalid } = await readRunDirectory(dir)
  return { dir, records: records.map((r) => withProvisionalAnalysis(r)), invalid }
}

function historyTrends(history: LoadOptions['history']): ReportInput['trends'] {
  if (history === undefined || history === null) return null
  return loadTrendsInput(typeof history === 'string' ? { file: history } : history)
}

/** The run directories `dir` stands for: itself, or its run-ID subdirectories when it is a results root. */
async function runDirsOf(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  const runs = entries.filter((e) => e.isDirectory() && isRunId(e.name)).map((e) => join(dir, e.name))
  const ownRecords = entries.some((e) => e.isFile() && e.name.endsWith('.json'))
  return runs.length === 0 || ownRecords ? [dir, ...runs.sort()] : runs.sort()
}

/** The same run, record, creation time and host: one record, however many directories hold a copy. */
const identityOf = (r: ResultRecord) =>
  [r.provenance.runId, r.id, r.createdAt, r.provenance.host.hostname].join('\u0000')

/**
 * Monitor log paths made absolute against the record's directory (and found again where the directory moved):
 * records of many directories share one series map.
 */
function withAbsoluteLogs(record: ResultRecord, dir: string): ResultRecord {
  const runs = record.runs.map((run): MeasuredRun => {
    const logPath = run.gpu?.logPath
    return run.gpu && logPath
      ? { ...run, gpu: { ...run.gpu, logPath: monitorLogFile(logPath, record.provenance.runId, dir) } }
      : run
  })
  return { ...record, runs }
}

/** The record's id, or (taken by a record read earlier: two hosts' records of one suite) the id with its host. */
function freeId(record: ResultRecord, used: ReadonlySet<string>): string {
  const host = record.provenance.host.hostname.replace(/[^A-Za-z0-9._-]+/g, '-')
  for (let n = 0; ; n++) {
    const id = n === 0 ? record.id : n === 1 ? `${record.id}-${host}` : `${record.id}-${host}-${n}`
    if (!used.has(id)) return id
  }
}

interface Merged {
  records: ResultRecord[]
  invalid: StoredRun['invalid']
  sources: SourceDir[]
  notes: string[]
}

/** Reads every run directory of `dirs` into one set of records: copies counted once, ids kept unique. */
async function mergeDirs(dirs: readonly string[]): Promise<Merged> {
  const out: Merged = { records: [], invalid: [], sources: [], notes: [] }
  const seen = new Set<string>()
  const used = new Set<string>()
  const visited = new Set<string>()
  let renamed = 0
  for (const given of dirs) {
    const runDirs = await runDirsOf(given).catch((error: Error) => {
      out.sources.push({ dir: given, runIds: [], records: 0, invalid: 0, duplicates: 0, problem: error.message })
      out.notes.push(`results directory ${given}: not read (${error.message})`)
      return []
    })
    for (const dir of runDirs.filter((d) => !visited.has(d))) {
      visited.add(dir)
      const source: SourceDir = { dir, runIds: [], records: 0, invalid: 0, duplicates: 0, problem: null }
      out.sources.push(source)
      const stored = await readStored(dir).catch((error: Error) => {
        source.problem = error.message
        out.notes.push(`results directory ${dir}: not read (${error.message})`)
        return null
      })
      out.invalid.push(...(stored?.invalid ?? []))
      source.invalid = stored?.invalid.length ?? 0
      for (const record of stored?.records ?? []) {
        const key = identityOf(record)
        if (seen.has(key)) {
          source.duplicates++
          continue
        }
        seen.add(key)
        const id = freeId(record, used)
        used.add(id)
        if (id !== record.id) renamed++
        out.records.push(withAbsoluteLogs({ ...record, id }, dir))
        source.records++
        if (!source.runIds.includes(record.provenance.runId)) source.runIds.push(record.provenance.runId)
      }
    }
  }
  const copies = out.sources.reduce((n, s) => n + s.duplicates, 0)
  if (copies > 0)
    out.notes.push(`${copies} record(s) found in more than one directory (same run, id, time and host): counted once`)
  if (renamed > 0)
    out.notes.push(
      `${renamed} record(s) shared an id with a record read before them (another host's): shown as <id>-<host>`,
    )
  return out
}

/** One run ID as it is; several as a short list (a merged report's title). */
function runIdOf(records: readonly ResultRecord[]): string | null {
  const ids = [...new Set(records.map((r) => r.provenance.runId))].sort()
  if (ids.length <= 1) return ids[0] ?? null
  return `${ids.length} runs: ${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', ...' : ''}`
}

/** Benchmarks and outcome of a rebuild, from the invocations stored in `runDirs`; notes for files that are not one. */
async function storedRunEnd(runDirs: readonly string[], options: LoadOptions) {
  if (!options.rebuild) return { benchmarks: options.benchmarks ?? [], outcome: options.outcome, notes: [] }
  const all = await Promise.all(runDirs.map((dir) => readInvocations(dir)))
  const invocations = all.flatMap((a) => a.invocations)
  const notes = all.flatMap((a) => a.invalid.map((i) => `invocation file ${i.file}: not read (${i.reason})`))
  return {
    benchmarks: options.benchmarks ?? invocations.flatMap((i) => i.benchmarks),
    outcome: options.outcome ?? combinedOutcome(invocations),
    notes,
  }
}

async function loadMerged(dirs: readonly string[], options: LoadOptions): Promise<ReportInput> {
  const merged = await mergeDirs(dirs)
  const { series, notes } = await loadSeries(merged.records, '/')
  const end = await storedRunEnd(
    merged.sources.map((s) => s.dir),
    options,
  )
  return {
    ...(await loadSingle(null, { ...options, rebuild: false })),
    benchmarks: end.benchmarks,
    outcome: end.outcome ?? { state: 'passed' },
    runId: runIdOf(merged.records),
    resultsDir: dirs.join(' + '),
    records: merged.records,
    invalid: merged.invalid,
    series,
    seriesNotes: [...merged.notes, ...notes, ...end.notes],
    sources: merged.sources,
  }
}

async function loadSingle(dir: string | null, options: LoadOptions): Promise<ReportInput> {
  let stored: StoredRun = { dir: dir ?? '', records: [], invalid: [] }
  const notes: string[] = []
  if (dir !== null) {
    try {
      stored = await readStored(dir)
    } catch (error) {
      notes.push(`results directory ${dir}: not read (${(error as Error).message})`)
    }
  }
  const { series, notes: seriesNotes } = dir ? await loadSeries(stored.records, dir) : { series: new Map(), notes: [] }
  const baseline = options.baselineDir ? await readStored(resolve(options.baselineDir)) : null
  const end = await storedRunEnd(dir === null ? [] : [dir], options)
  return {
    runId: stored.records[0]?.provenance.runId ?? (dir ? (dir.split(/[\\/]/).at(-1) ?? null) : null),
    resultsDir: dir,
    records: stored.records,
    invalid: stored.invalid,
    series,
    seriesNotes: [...notes, ...seriesNotes, ...end.notes],
    benchmarks: end.benchmarks,
    baseline,
    outcome: end.outcome ?? { state: 'passed' },
    generatedAt: (options.now ?? new Date()).toISOString(),
    trends: historyTrends(options.history),
  }
}

/**
 * Everything a report needs. One run directory reads as before; several directories, or a results root, are merged
 * (the report's fleet section compares their hosts). A results directory that does not exist reads as empty, with a note.
 * @throws only when `baselineDir` is given and cannot be read (the caller asked for that comparison).
 */
export async function loadReportInput(options: LoadOptions): Promise<ReportInput> {
  const given = options.resultsDir
  if (given === null) return loadSingle(null, options)
  const dirs = [...new Set((typeof given === 'string' ? [given] : given).map((d) => resolve(d)))]
  if (dirs.length === 1) {
    const runDirs = await runDirsOf(dirs[0]!).catch(() => dirs)
    if (runDirs.length === 1 && runDirs[0] === dirs[0]) return loadSingle(dirs[0]!, options)
  }
  return loadMerged(dirs, options)
}

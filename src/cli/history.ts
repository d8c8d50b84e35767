import { stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { editDistance } from '../config/closest.ts'
import { resultsRoot } from '../engine/context.ts'
import { analyzeChanges } from '../history/changes.ts'
import { historyRunsOf } from '../history/entry.ts'
import { HistoryError } from '../history/errors.ts'
import { checkHistoryFile, checkHistoryWritable } from '../history/file-check.ts'
import { listRuns, type MetricName, metricNames, readSeries, type Series, sampleReader } from '../history/read.ts'
import { HistoryStore } from '../history/store.ts'
import { writeFileAtomic } from '../platform/atomic-write.ts'
import { escapeControls } from '../platform/one-line.ts'
import { readRunDirectory } from '../results/partial-records.ts'
import type { ResultRecord } from '../results/schema/index.ts'
import { type CommandSpec, parseCommand, selectSubcommand } from './command-spec.ts'
import { UnusableDataError } from './exit-codes.ts'
import { renderChanges, renderRuns, renderSeries } from './history-text.ts'
import { checkOutputTarget } from './output-target.ts'
import { historyAddSpec, historyChangesSpec, historyListSpec, historyShowSpec, historySpec } from './specs-history.ts'
import { UsageError } from './usage-error.ts'

/** Known metric names listed when one asked for does not exist. */
const LISTED_NAMES = 15

const RUNNERS = new Map<CommandSpec, (args: string[]) => Promise<number>>([
  [historyAddSpec, add],
  [historyListSpec, list],
  [historyShowSpec, show],
  [historyChangesSpec, changes],
])

/**
 * `virnucpro-bench history add|list|show|changes`. Exit 0; 1 `changes` found a regression at the newest commit; 2 bad
 * arguments; 3 the database cannot be used (HistoryError: one line naming the file and what to do).
 */
export async function run(args: string[]): Promise<number> {
  const selected = selectSubcommand(historySpec, args)
  if (!('spec' in selected)) throw new UsageError(`${historySpec.name}: expected a subcommand before options`)
  try {
    return await RUNNERS.get(selected.spec)!(selected.args)
  } catch (error) {
    if (!(error instanceof HistoryError)) throw error
    // The database cannot be used (missing, locked, a newer schema, not a history): not a regression, not usage.
    throw new UnusableDataError(`${selected.spec.name}: ${error.message}`, { cause: error })
  }
}

/** --db, else $VIRNUCPRO_BENCH_HISTORY, else `history.sqlite` in the results root. */
export function historyFile(db: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(db ?? (env.VIRNUCPRO_BENCH_HISTORY?.trim() || join(resultsRoot(env), 'history.sqlite')))
}

/** History text holds stored fields (record ids, hosts, names): each line printed as one line, controls escaped. */
const print = (lines: readonly string[]) => console.log(lines.map(escapeControls).join('\n'))
const printJson = (value: unknown) => console.log(JSON.stringify(value, null, 2))

/**
 * Every RUN_DIR's valid records, the invalid ones named on stderr.
 * @throws UnusableDataError for a directory that cannot be read or holds no valid record: nothing is added then.
 */
async function readRunDirs(dirs: readonly string[]): Promise<{ dir: string; records: ResultRecord[] }[]> {
  const runs: { dir: string; records: ResultRecord[] }[] = []
  for (const dir of dirs.map((d) => resolve(d))) {
    const read = await readRunDirectory(dir).catch((error: Error) => {
      throw new UnusableDataError(
        `history add: RUN_DIR '${dir}' cannot be read (${error.message}); nothing was added`,
        {
          cause: error,
        },
      )
    })
    for (const bad of read.invalid)
      console.error(escapeControls(`virnucpro-bench history add: invalid record ${bad.file}: ${bad.reason} (skipped)`))
    // A partial measurement is no night of its own: mixed into a series it would read as a whole run.
    for (const partial of read.records.filter((r) => r.state === 'partial'))
      console.error(
        escapeControls(
          `virnucpro-bench history add: ${dir}: '${partial.name}' left out: partial (${partial.reason}); add the run once it is continued`,
        ),
      )
    const whole = read.records.filter((r) => r.state !== 'partial')
    if (whole.length === 0 && read.records.length > 0)
      throw new UnusableDataError(
        `history add: RUN_DIR '${dir}' holds only partial measurements (its invocation was stopped before any finished): continue it with the same command, then add it; nothing was added`,
      )
    if (read.records.length === 0) {
      const what = read.invalid.length === 0 ? 'no .json record files' : `only ${read.invalid.length} invalid file(s)`
      throw new UnusableDataError(
        `history add: RUN_DIR '${dir}' holds no valid result record (${what}): give a results/<runId> directory of a run; nothing was added`,
      )
    }
    runs.push({ dir, records: whole })
  }
  return runs
}

async function add(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(historyAddSpec, args)
  if (positionals.length === 0) throw new UsageError('history add: expected RUN_DIR (a results/<runId> directory)')
  for (const dir of positionals)
    if (!(await stat(dir).catch(() => null))?.isDirectory())
      throw new UsageError(`history add: RUN_DIR '${dir}' is not a directory`)
  const file = historyFile(values.db)
  // A history inside a run directory would be a file its readers never wrote (issue 58); refused before anything is read.
  const option =
    values.db !== undefined
      ? '--db'
      : process.env.VIRNUCPRO_BENCH_HISTORY?.trim()
        ? 'VIRNUCPRO_BENCH_HISTORY'
        : 'history file'
  checkOutputTarget({
    command: 'history add',
    option,
    target: file,
    instead: 'a .sqlite file outside every run directory, e.g. results/history.sqlite',
  })
  const runs = await readRunDirs(positionals)
  // Both before SQLite opens it: a file that is no history, or cannot be written, is left exactly as it was.
  checkHistoryFile(file)
  checkHistoryWritable(file)
  using store = openToAdd(file)
  for (const { dir, records } of runs)
    for (const entry of historyRunsOf(records, dir)) {
      const o = store.addRun(entry)
      const present = o.present === 0 ? '' : `, ${o.present} already present`
      print([
        o.added === 0
          ? `run ${o.runId}: already present (${o.present} records), nothing added`
          : `run ${o.runId}: added ${o.added} record(s) with ${o.metrics} metric(s)${present}`,
      ])
    }
  console.log(`history: ${file}`)
  return 0
}

/** What SQLite met while opening or setting up a history (not a file refused as it was found). */
const MET_ON_THE_WAY = new Set([
  'HISTORY_DISK_FULL',
  'HISTORY_IO',
  'HISTORY_DAMAGED',
  'HISTORY_LOCKED',
  'HISTORY_READONLY',
])

/**
 * The history `add` writes to, created when missing.
 * @throws HistoryError; one met on the way (a full disk, a damaged page) says, too, that nothing was added.
 */
function openToAdd(file: string): HistoryStore {
  try {
    return HistoryStore.open(file, { create: true })
  } catch (error) {
    if (!(error instanceof HistoryError) || !MET_ON_THE_WAY.has(error.code)) throw error
    throw new HistoryError(error.code, file, `${error.message}; nothing was added`, { cause: error.cause })
  }
}

async function list(args: string[]): Promise<number> {
  const { values } = parseCommand(historyListSpec, args)
  const file = historyFile(values.db)
  using store = HistoryStore.open(file)
  const runs = listRuns(store)
  if (values.json) printJson({ file, runs })
  else print(renderRuns(runs, file))
  return 0
}

/** The metric names called `wanted`; a UsageError listing the known names, closest first, when there is none. */
function findMetric(store: HistoryStore, wanted: string, command: string): MetricName[] {
  const names = metricNames(store)
  const found = names.filter((m) => m.name === wanted)
  if (found.length > 0) return found
  const known = [...new Set(names.map((m) => m.name))]
  if (known.length === 0) throw new UsageError(`${command}: no metric '${wanted}': ${store.file} has no metrics yet`)
  const closest = known
    .map((name) => ({ name, distance: editDistance(wanted, name) }))
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .map((c) => `'${c.name}'`)
  const more = closest.length > LISTED_NAMES ? `, ... (${closest.length - LISTED_NAMES} more)` : ''
  const shown = closest.slice(0, LISTED_NAMES).join(', ')
  throw new UsageError(
    `${command}: no metric '${wanted}' in ${store.file}; known metrics, closest first: ${shown}${more}`,
  )
}

function seriesJson(s: Series) {
  return {
    metric: s.metric.name,
    unit: s.metric.unit,
    better: s.metric.better,
    recordId: s.recordId,
    host: s.host,
    gpuModel: s.gpuModel,
    points: s.records.map((r, i) => {
      const low = s.detail?.ciLow[i] ?? null
      const high = s.detail?.ciHigh[i] ?? null
      return {
        ...r,
        value: s.values[i],
        ci: low === null || high === null ? null : { low, high },
        n: s.detail?.n[i] ?? null,
        verdict: s.detail?.verdicts[i] ?? null,
      }
    }),
  }
}

async function show(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(historyShowSpec, args)
  if (positionals.length !== 1) throw new UsageError(`history show: expected one METRIC, got ${positionals.length}`)
  const wanted = positionals[0]!
  const file = historyFile(values.db)
  using store = HistoryStore.open(file)
  // One snapshot for the names and the series: a metric added between them would be a series without a name.
  const all = store.read(`show ${wanted}`, () =>
    readSeries(store, { metrics: findMetric(store, wanted, 'history show'), detail: true }),
  )
  const series = all.filter(
    (s) =>
      (values.record === undefined || s.recordId === values.record) &&
      (values.host === undefined || s.host === values.host) &&
      (values.gpu === undefined || s.gpuModel === values.gpu),
  )
  if (series.length === 0) {
    const where = [...new Set(all.map((s) => `--record '${s.recordId}' --host '${s.host}' --gpu '${s.gpuModel}'`))]
    throw new UsageError(`history show: '${wanted}' has no points there; it has: ${where.join('; ')}`)
  }
  if (values.json) printJson({ file, series: series.map(seriesJson) })
  else print(renderSeries(series))
  return 0
}

/** The shape of `history changes --json` and --json-file; bumped when it changes. */
export const CHANGES_JSON_SCHEMA_VERSION = 1

async function writeJsonFile(path: string, json: unknown): Promise<void> {
  try {
    await writeFileAtomic(resolve(path), `${JSON.stringify(json, null, 2)}\n`)
  } catch (error) {
    throw new UnusableDataError(
      `history changes: --json-file '${path}' cannot be written (${(error as Error).message}): give a file in a writable directory`,
      { cause: error },
    )
  }
}

function minEffectOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const parsed = Number(value)
  if (value.trim() === '' || !(parsed > 0 && parsed < 1))
    throw new UsageError(`history changes: --min-effect must be a number in (0, 1) (0.1 = 10%), got '${value}'`)
  return parsed
}

async function changes(args: string[]): Promise<number> {
  const { values } = parseCommand(historyChangesSpec, args)
  const minRelativeEffect = minEffectOf(values['min-effect'])
  const jsonFile = values['json-file']
  if (jsonFile !== undefined)
    checkOutputTarget({
      command: 'history changes',
      option: '--json-file',
      target: jsonFile,
      instead: 'a new file outside every run directory, e.g. ./changes.json',
    })
  const file = historyFile(values.db)
  using store = HistoryStore.open(file)
  // One snapshot for the names, the series and the runs the newest points are judged by.
  const report = store.read('judge its changes', () => {
    const metrics = values.metric === undefined ? undefined : findMetric(store, values.metric, 'history changes')
    return analyzeChanges(readSeries(store, { metrics }), { minRelativeEffect, samplesOf: sampleReader(store) })
  })
  const exitCode = report.regressions.length > 0 ? 1 : 0
  const json = { schemaVersion: CHANGES_JSON_SCHEMA_VERSION, file, ...report, exitCode }
  if (jsonFile !== undefined) await writeJsonFile(jsonFile, json)
  if (values.json) printJson(json)
  else print(renderChanges(report))
  return exitCode
}

/**
 * `virnucpro-bench capacity RUN_DIR... [--sizes R1,R2] [--at N1,N2] [--json FILE]`: refits the capacity size model
 * from stored run directories and projects it to any size, without GPU time (src/capacity/refit.ts). Exit 0
 * when refitted; 2 bad arguments; 3 nothing to fit.
 */
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { heldOutSpeedups } from '../capacity/held-out.ts'
import { checkedRefit, lacksBusySpans, type RefitOptions, refitInput, refitOptions } from '../capacity/index.ts'
import { refitAnswer } from '../capacity/refit-answer.ts'
import { progressFromLog } from '../engine/progress-from-log.ts'
import { MonitorLogError, readMonitorLog } from '../monitor/log-reader.ts'
import { type MonitorSummary, summarizeRecords } from '../monitor/summary/summarize.ts'
import { textLines } from '../pipeline/log-file-lines.ts'
import { writeFileAtomic } from '../platform/atomic-write.ts'
import { fsProblem } from '../platform/fs-problem.ts'
import { escapeControls } from '../platform/one-line.ts'
import { FileRefusedError, ONE_STRING_MAX_BYTES, readRegularFile } from '../platform/regular-file.ts'
import { analyzeStudyRecords, withoutStudySettings } from '../report/analyses/study.ts'
import { monitorLogFile } from '../report/load.ts'
import { readRunDirectory } from '../results/partial-records.ts'
import { isRunId } from '../results/run-id.ts'
import type { MeasuredRun, ResultRecord } from '../results/schema/index.ts'
import { capacityJson } from './capacity-json.ts'
import { capacityText } from './capacity-text.ts'
import { parseCommand } from './command-spec.ts'
import { UnusableDataError } from './exit-codes.ts'
import { checkOutputTarget } from './output-target.ts'
import { capacitySpec } from './specs-capacity.ts'
import { UsageError } from './usage-error.ts'

function numberList(name: string, text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined
  const values = text.split(',').map((p) => p.trim())
  if (values.some((v) => !/^\d+$/.test(v) || Number(v) < 1))
    throw new UsageError(`capacity: --${name} must be positive whole numbers separated by commas, got '${text}'`)
  return values.map(Number)
}

/** Records of a run directory, or of every run directory of a results root; with each record's directory. */
async function recordsIn(dir: string): Promise<{ record: ResultRecord; dir: string }[]> {
  const info = await stat(dir).catch(() => null)
  if (!info?.isDirectory()) throw new UsageError(`capacity: RUN_DIR '${dir}' is not a directory`)
  // An interrupted run's partial records are refitted too (their runs are as measured); the output says so.
  const own = await readRunDirectory(dir)
  for (const bad of own.invalid)
    console.error(escapeControls(`virnucpro-bench capacity: left out ${bad.file}: ${bad.reason}`))
  for (const partial of own.records.filter((r) => r.state === 'partial'))
    console.error(
      escapeControls(
        `virnucpro-bench capacity: ${dir}: '${partial.name}' is partial (${partial.reason}): refitted from its kept runs`,
      ),
    )
  if (own.records.length > 0) return own.records.map((record) => ({ record, dir }))
  const runs = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory() && isRunId(e.name))
  return (await Promise.all(runs.map((e) => recordsIn(join(dir, e.name))))).flat()
}

/**
 * The text of each run's pipeline log, wherever its run directory now is, read before the refit (which asks for them
 * one at a time, synchronously): a regular file, never waited on. A log that is not there means no progress; one that
 * cannot be read is named on stderr and left out.
 */
async function readRunLogs(found: readonly { record: ResultRecord; dir: string }[]): Promise<Map<string, string>> {
  const logs = new Map<string, string>()
  for (const { record, dir } of found)
    for (const run of record.runs) {
      if (!run.run.logPath) continue
      const file = monitorLogFile(run.run.logPath, record.provenance.runId, dir)
      if (logs.has(file)) continue
      try {
        logs.set(file, await readRegularFile(file, { maxBytes: ONE_STRING_MAX_BYTES }))
      } catch (error) {
        if (!(error instanceof FileRefusedError)) throw error
        if (error.code !== 'ENOENT')
          console.error(escapeControls(`virnucpro-bench capacity: left out pipeline log ${file}: ${error.reason}`))
      }
    }
  return logs
}

/**
 * The monitor summaries, summarized again from each run's monitor log, of the runs whose stored summary predates GPU
 * busy spans (capacity/refit-sources.ts), keyed by the log's file. A log that is not there is no summary; one that
 * cannot be read or is no monitor log is named on stderr and left out.
 */
async function readMonitorLogs(
  found: readonly { record: ResultRecord; dir: string }[],
): Promise<Map<string, MonitorSummary>> {
  const summaries = new Map<string, MonitorSummary>()
  for (const { record, dir } of found)
    for (const run of record.runs) {
      const logPath = run.gpu?.logPath
      if (!logPath || !lacksBusySpans(run.gpu!)) continue
      const file = monitorLogFile(logPath, record.provenance.runId, dir)
      if (summaries.has(file)) continue
      try {
        summaries.set(file, summarizeRecords((await readMonitorLog(file)).records, {}, logPath))
      } catch (error) {
        if (error instanceof FileRefusedError && error.code === 'ENOENT') continue
        if (!(error instanceof FileRefusedError || error instanceof MonitorLogError)) throw error
        console.error(escapeControls(`virnucpro-bench capacity: left out monitor log ${file}: ${error.message}`))
      }
    }
  return summaries
}

/** The run's monitor summary read again from its monitor log (readMonitorLogs); null without one. */
function monitorFromRunLog(dirOf: Map<ResultRecord, string>, summaries: ReadonlyMap<string, MonitorSummary>) {
  return (run: MeasuredRun, record: ResultRecord) => {
    const logPath = run.gpu?.logPath
    const dir = dirOf.get(record)
    if (!logPath || !dir) return null
    return summaries.get(monitorLogFile(logPath, record.provenance.runId, dir)) ?? null
  }
}

/** The run's progress read from its pipeline log (read beforehand by readRunLogs); null without a log. */
function progressFromRunLog(dirOf: Map<ResultRecord, string>, logs: ReadonlyMap<string, string>) {
  return (run: MeasuredRun, record: ResultRecord) => {
    const logPath = run.run.logPath
    const dir = dirOf.get(record)
    if (!logPath || !dir) return null
    const text = logs.get(monitorLogFile(logPath, record.provenance.runId, dir))
    return text === undefined ? null : progressFromLog(textLines(text))
  }
}

/** `--json FILE`: whole or not at all, and a file that cannot be written named with why. @throws UnusableDataError */
async function writeJsonFile(file: string, text: string): Promise<void> {
  try {
    await writeFileAtomic(file, text)
  } catch (error) {
    throw new UnusableDataError(
      `capacity: --json '${file}' cannot be written (${fsProblem(error)}); nothing was written there: give a file in a writable directory with space`,
      { cause: error },
    )
  }
}

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(capacitySpec, args)
  if (positionals.length === 0)
    throw new UsageError('capacity: name at least one RUN_DIR (a results/<runId> directory)')
  const sizes = numberList('sizes', values.sizes)
  const at = numberList('at', values.at) ?? []
  if (values.json !== undefined && values.json !== '-')
    checkOutputTarget(
      {
        command: 'capacity',
        option: '--json',
        target: values.json,
        instead: 'a new file outside every run directory, e.g. ./capacity-refit.json',
      },
      positionals,
    )
  const found = (await Promise.all(positionals.map(recordsIn))).flat()
  if (found.length === 0)
    throw new UnusableDataError(
      `capacity: no result records in ${positionals.join(', ')}: name a results/<runId> directory`,
    )
  // The default's answer: a settings study's screening runs and its settings' capacity records are left out, named.
  const studied = withoutStudySettings(found.map((f) => f.record))
  const records = studied.records
  if (records.length === 0)
    throw new UnusableDataError(
      `capacity: only settings-study records in ${positionals.join(', ')} (${studied.notes.join('; ')}): no capacity answer to refit; 'virnucpro-bench report' shows the study`,
    )
  const thresholds = (records.find((r) => r.kind === 'capacity') ?? records[0]!).thresholds
  const dirOf = new Map(found.map((f) => [f.record, f.dir]))
  const refitSources: RefitOptions = {
    sizes,
    gpuStages: thresholds.perf02.stages,
    progressOf: progressFromRunLog(dirOf, await readRunLogs(found)),
    monitorOf: monitorFromRunLog(dirOf, await readMonitorLogs(found)),
  }
  const first = refitInput(records, refitSources)
  const fittable = first.configs.filter((c) => new Set(c.runs.map((r) => r.size)).size >= 2)
  if (fittable.length === 0)
    throw new UnusableDataError(
      // Issue 47: every run it left out is named with why, or the line reads as if there were none.
      `capacity: no configuration has completed runs at two or more sizes in ${positionals.join(', ')} (sizes found: ${first.frame.sizes.join(', ') || 'none'}${first.notes.length > 0 ? `; ${first.notes.join('; ')}` : ''}); --sizes picks from those`,
    )
  // Checked against the runs it left out, as the suite checked its own fit: the status the measurement earned.
  const { stats, verdicts, input } = checkedRefit(records, refitSources, first, thresholds, at, refitOptions(records))
  const checks = { sizes: stats.direct ?? [], speedups: heldOutSpeedups(stats, input.heldOut) }
  // The answer every report reads, from this refit: provisional where a record is partial (stderr says which).
  const answer = refitAnswer(records, stats, verdicts)
  // The settings studies of the directories read, as the reports show them (after the answer they tune).
  const study = analyzeStudyRecords(found.map((f) => f.record))
  const notes = [...studied.notes, ...input.notes]
  console.log(capacityText(answer, stats, verdicts, notes, checks, study).map(escapeControls).join('\n'))
  if (values.json !== undefined) {
    const text = `${JSON.stringify(capacityJson(answer, stats, verdicts, notes, checks, study), null, 2)}\n`
    if (values.json === '-') process.stdout.write(text)
    else await writeJsonFile(values.json, text)
  }
  return 0
}

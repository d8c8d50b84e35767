/**
 * `virnucpro-bench capacity RUN_DIR... [--sizes R1,R2] [--at N1,N2] [--json FILE]`: refits the capacity size model
 * from stored run directories and projects it to any size, without GPU time (src/capacity/refit.ts). Exit 0
 * when refitted; 2 bad arguments; 3 nothing to fit.
 */
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { architectureLine, compareArchitectures } from '../capacity/architecture-compare.ts'
import { groupByArchitecture } from '../capacity/architecture-groups.ts'
import { heldOutSpeedups } from '../capacity/held-out.ts'
import { checkedRefit, lacksBusySpans, type RefitOptions, refitInput, refitOptions } from '../capacity/index.ts'
import { refitAnswer } from '../capacity/refit-answer.ts'
import { DEFAULT_THRESHOLDS } from '../config/thresholds.ts'
import { progressFromLog } from '../engine/progress-from-log.ts'
import { MonitorLogError, readMonitorLog } from '../monitor/log-reader.ts'
import { type MonitorSummary, summarizeRecords } from '../monitor/summary/summarize.ts'
import { architectureOf } from '../pipeline/architecture-line.ts'
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

/** The architecture a run's pipeline log names (read beforehand by readRunLogs); null without a log or a line. */
function architectureFromRunLog(dirOf: Map<ResultRecord, string>, logs: ReadonlyMap<string, string>) {
  return (run: MeasuredRun, record: ResultRecord) => {
    const logPath = run.run.logPath
    const dir = dirOf.get(record)
    if (!logPath || !dir) return null
    const text = logs.get(monitorLogFile(logPath, record.provenance.runId, dir))
    for (const line of text === undefined ? [] : textLines(text)) {
      const seen = architectureOf(line.replace(/^.* - [\w.]+ - [A-Z]+ - /, ''))
      if (seen) return seen.architecture
    }
    return null
  }
}

/** One group's refit, checked against its held-out runs, with its answer; or why it has nothing to fit. */
function refitGroup(records: readonly ResultRecord[], sources: RefitOptions, at: readonly number[]) {
  const thresholds = (records.find((r) => r.kind === 'capacity') ?? records[0]!).thresholds
  const first = refitInput(records, sources)
  if (!first.configs.some((c) => new Set(c.runs.map((r) => r.size)).size >= 2))
    return {
      problem: `sizes found: ${first.frame.sizes.join(', ') || 'none'}${first.notes.length > 0 ? `; ${first.notes.join('; ')}` : ''}`,
    }
  // Checked against the runs it left out, as the suite checked its own fit: the status the measurement earned.
  const { stats, verdicts, input } = checkedRefit(records, sources, first, thresholds, at, refitOptions(records))
  return {
    stats,
    verdicts,
    notes: input.notes,
    checks: { sizes: stats.direct ?? [], speedups: heldOutSpeedups(stats, input.heldOut) },
    // The answer every report reads, from this refit: provisional where a record is partial (stderr says which).
    answer: refitAnswer(records, stats, verdicts),
    recordId: records.find((r) => r.kind === 'capacity')?.id ?? records[0]!.id,
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
  const logs = await readRunLogs(found)
  const sources = {
    progressOf: progressFromRunLog(dirOf, logs),
    monitorOf: monitorFromRunLog(dirOf, await readMonitorLogs(found)),
    architectureOf: architectureFromRunLog(dirOf, logs),
  }
  // One refit per architecture (issue 56): v2.0's answer, then v1.0's baseline, compared after.
  const groups = groupByArchitecture(records, sources)
  const refits = groups.map((g) =>
    refitGroup(g.records, { sizes, gpuStages: thresholds.perf02.stages, ...sources }, at),
  )
  if (refits.every((r) => 'problem' in r))
    throw new UnusableDataError(
      // Issue 47: every run it left out is named with why, or the line reads as if there were none.
      `capacity: no configuration has completed runs at two or more sizes in ${positionals.join(', ')} (${refits.map((r) => ('problem' in r ? r.problem : '')).join('; ')}); --sizes picks from those`,
    )
  // The settings studies of the directories read, as the reports show them (after the answer they tune).
  const study = analyzeStudyRecords(found.map((f) => f.record))
  const done = refits.flatMap((r, i) => ('problem' in r ? [] : [{ ...r, group: groups[i]! }]))
  const architectures = compareArchitectures(
    done.map((d) => ({ recordId: d.recordId, answer: d.answer })),
    { architecture: thresholds.architecture ?? DEFAULT_THRESHOLDS.architecture },
  )
  const texts = done.map((d, i) => {
    const lines = capacityText(
      d.answer,
      d.stats,
      d.verdicts,
      [...studied.notes, ...d.notes],
      d.checks,
      i === 0 ? study : undefined,
    )
    return done.length > 1 ? [`== ${d.group.architecture} ==`, ...lines] : lines
  })
  const compared = architectures.map((c) => architectureLine(c))
  console.log(
    [...texts.flat(), ...(compared.length > 0 ? ['', 'v2.0 against v1.0:', ...compared.map((l) => `  ${l}`)] : [])]
      .map(escapeControls)
      .join('\n'),
  )
  if (values.json !== undefined) {
    const [primary, ...others] = done.map((d) =>
      capacityJson(d.answer, d.stats, d.verdicts, [...studied.notes, ...d.notes], d.checks, study),
    )
    const text = `${JSON.stringify({ ...primary, baselines: others, architectures }, null, 2)}\n`
    if (values.json === '-') process.stdout.write(text)
    else await writeJsonFile(values.json, text)
  }
  return 0
}

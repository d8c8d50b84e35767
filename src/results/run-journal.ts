/**
 * The run journal: every finished run kept on disk the moment it ends, so that nothing finished is only in memory and
 * an interrupted measurement can be continued (src/engine/kept-runs.ts decides what is reused). Layout, under a work
 * directory (`results/<runId>/work[/<task>]`):
 *   <slot>/<run>/target.log, gpu.jsonl, out/   what the run wrote while it ran
 *   <slot>/<run>/run.json                       written atomically once the run has ended: its record and key
 *   <slot>/<run>.attempt-<n>/                   an earlier attempt at that run (killed, failed, or of another key),
 *                                               kept for its logs, never read as a run
 *   measurements/<key>.json                     which record a measurement's arms are for
 * A run folder without `run.json` is a run that was in flight when its process died: its files are never read as a run.
 */
import { type Dirent, existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdir, readdir, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../platform/atomic-write.ts'
import { jsonSyntaxProblem } from '../platform/json-problem.ts'
import { FileRefusedError, readRegularFile } from '../platform/regular-file.ts'
import { runRefusal } from './run-acceptance.ts'
import {
  JOURNAL_FORMAT,
  type MeasurementEntry,
  MeasurementEntrySchema,
  type RunEntry,
  RunEntrySchema,
} from './schema/run-entry.ts'
import { RECORD_MAX_BYTES } from './store.ts'

export const RUN_FILE = 'run.json'
export const MEASUREMENTS_DIR = 'measurements'

export type RunEntryReading =
  | { state: 'absent' }
  | { state: 'kept'; entry: RunEntry }
  /** A file that is no run entry of this format: cut short, edited, or written by other code. */
  | { state: 'unreadable'; reason: string }

/** Parses one journal file's text against `schema`; a reason instead of a throw. */
function parseEntry<T>(
  text: string,
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: unknown[] } } },
): { entry: T } | { reason: string } {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    // Never the file's bytes (json-problem.ts): they would reach every line and report that names the file.
    return { reason: jsonSyntaxProblem(error, text) }
  }
  const format = (json as { format?: unknown } | null)?.format
  if (format !== JOURNAL_FORMAT)
    return { reason: `journal format ${String(format)}, this code reads ${JOURNAL_FORMAT}` }
  const parsed = schema.safeParse(json)
  if (parsed.success) return { entry: parsed.data }
  const issue = parsed.error.issues[0] as { path: PropertyKey[]; message: string }
  return { reason: `not a run entry: ${issue.path.join('.') || '(root)'}: ${issue.message}` }
}

/** Keeps a finished run: `<runDir>/run.json`, atomically (readers see the whole entry or none). */
export async function writeRunEntry(runDir: string, entry: RunEntry): Promise<void> {
  await mkdir(runDir, { recursive: true })
  await writeFileAtomic(join(runDir, RUN_FILE), `${JSON.stringify(entry)}\n`)
}

/** What `runDir` holds: a kept run, nothing finished, or a file that cannot be read as one (with why). */
export async function readRunEntry(runDir: string): Promise<RunEntryReading> {
  // As every file of a results directory: a regular file of a bounded size, never waited on (a FIFO is refused).
  let text: string
  try {
    text = await readRegularFile(join(runDir, RUN_FILE), { maxBytes: RECORD_MAX_BYTES })
  } catch (error) {
    if (!(error instanceof FileRefusedError)) throw error
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return { state: 'absent' }
    return { state: 'unreadable', reason: error.reason }
  }
  const parsed = parseEntry(text, RunEntrySchema)
  return 'entry' in parsed ? { state: 'kept', entry: parsed.entry } : { state: 'unreadable', reason: parsed.reason }
}

/**
 * Moves an earlier attempt's folder out of the way (`<runDir>.attempt-<n>`, the first free n), so the run can be
 * measured again in `runDir` while the old logs stay for whoever wants to see why it ended. Returns the new path, or
 * null when there was nothing at `runDir`.
 */
export async function setAside(runDir: string): Promise<string | null> {
  if (!existsSync(runDir)) return null
  for (let n = 1; ; n++) {
    const target = `${runDir}.attempt-${n}`
    if (existsSync(target)) continue
    await rename(runDir, target)
    return target
  }
}

/** Writes (or rewrites: a continuation's is as good) the measurement file `measurements/<key>.json`. */
export async function writeMeasurementEntry(workDir: string, key: string, entry: MeasurementEntry): Promise<void> {
  const dir = join(workDir, MEASUREMENTS_DIR)
  await mkdir(dir, { recursive: true })
  await writeFileAtomic(join(dir, `${key}.json`), `${JSON.stringify(entry)}\n`)
}

/** A measurement of the journal with the runs kept for its arms, in the order they finished. */
export interface JournalMeasurement {
  file: string
  entry: MeasurementEntry
  /** Kept runs of its arms (warm-ups included), oldest first. */
  runs: RunEntry[]
}

/** `<arm> run 3` / `<arm> warm-up 1`: the labels measureInterleaved gives an arm's runs. */
export function isRunOf(label: string, arm: string): boolean {
  return label.startsWith(`${arm} `) && /^(?:run|warm-up) \d+$/.test(label.slice(arm.length + 1))
}

/**
 * The kept runs of one arm that stand for it (run-acceptance.ts: its key, plausible figures); the others are named in
 * `problems` in the words continuing uses, and left out.
 */
async function armRuns(
  workDir: string,
  arm: JournalMeasurement['entry']['arms'][number],
  into: JournalMeasurement,
  problems: { file: string; reason: string }[],
): Promise<void> {
  const slotDir = join(workDir, arm.slot)
  const names = await readdir(slotDir).catch(() => [] as string[])
  const found: { file: string; entry: RunEntry }[] = []
  for (const name of names.sort()) {
    if (/\.attempt-\d+$/.test(name)) continue
    const file = join(slotDir, name, RUN_FILE)
    const reading = await readRunEntry(join(slotDir, name))
    if (reading.state === 'kept' && isRunOf(reading.entry.measured.label, arm.label))
      found.push({ file, entry: reading.entry })
    // Whose run it was cannot be read: named once (a slot can be two measurements'), in continuing's words.
    else if (reading.state === 'unreadable' && !problems.some((p) => p.file === file))
      problems.push({ file, reason: `left out: its run.json is unreadable (${reading.reason})` })
  }
  // A journal written before the arm's key was kept: its newest run's key stands in.
  const key = arm.key ?? found.toSorted((a, b) => b.entry.finishedAt.localeCompare(a.entry.finishedAt))[0]?.entry.key
  for (const run of found) {
    const refusal = key ? runRefusal(run.entry, key, false) : null
    if (refusal) problems.push({ file: run.file, reason: `left out of '${into.entry.purpose.id}': ${refusal}` })
    else into.runs.push(run.entry)
  }
}

/**
 * Every measurement of a work directory with its kept runs: what a reader shows of an interrupted run. Unreadable
 * measurement files come back as problems, never thrown.
 */
export async function readJournal(
  workDir: string,
): Promise<{ measurements: JournalMeasurement[]; problems: { file: string; reason: string }[] }> {
  const dir = join(workDir, MEASUREMENTS_DIR)
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).sort()
  const measurements: JournalMeasurement[] = []
  const problems: { file: string; reason: string }[] = []
  for (const name of names) {
    const file = join(dir, name)
    const text = await readRegularFile(file, { maxBytes: RECORD_MAX_BYTES, inside: dir }).catch((error: unknown) => {
      if (error instanceof FileRefusedError) return { refused: error.reason }
      throw error
    })
    if (typeof text !== 'string') {
      problems.push({ file, reason: text.refused })
      continue
    }
    const parsed = parseEntry(text, MeasurementEntrySchema)
    if ('reason' in parsed) {
      problems.push({ file, reason: parsed.reason })
      continue
    }
    const m: JournalMeasurement = { file, entry: parsed.entry, runs: [] }
    for (const arm of parsed.entry.arms) await armRuns(workDir, arm, m, problems)
    m.runs.sort((a, b) => a.finishedAt.localeCompare(b.finishedAt))
    measurements.push(m)
  }
  return { measurements, problems }
}

/**
 * How many measured runs (warm-ups apart: the one count every output gives, as a partial record's `kept` does) a work
 * directory keeps, whatever their key: what a stop tells the user. A run file that cannot be read counts as measured
 * (it is a finished run; its reader says what is wrong with it).
 */
export function countKeptRunsSync(workDir: string): number {
  let count = 0
  const walk = (dir: string, depth: number) => {
    let entries: Dirent[]
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const e of entries) {
      if (e.isFile() && e.name === RUN_FILE) count += isWarmupSync(join(dir, e.name)) ? 0 : 1
      else if (e.isDirectory() && depth < 3 && !/\.attempt-\d+$/.test(e.name)) walk(join(dir, e.name), depth + 1)
    }
  }
  walk(workDir, 0)
  return count
}

/** Whether a kept run's file says it was a warm-up (false where it cannot be read). */
function isWarmupSync(file: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { measured?: { warmup?: boolean } }).measured?.warmup === true
  } catch {
    return false
  }
}

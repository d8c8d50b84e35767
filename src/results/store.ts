import { mkdir, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic, writeFileAtomicNew } from '../platform/atomic-write.ts'
import { jsonSyntaxProblem } from '../platform/json-problem.ts'
import { escapeControls } from '../platform/one-line.ts'
import { FileRefusedError, readRegularFile } from '../platform/regular-file.ts'
import { type ResultRecord, ResultRecordSchema } from './schema/index.ts'

/** A file in a results directory that is not a valid record (truncated by a crash, hand-edited, older schema). */
export interface InvalidRecord {
  file: string
  reason: string
}

export class InvalidResultRecordError extends Error {
  override name = 'InvalidResultRecordError'
}

/** `results/<runId>`: where one vitest invocation's records live. */
export function runDirectory(resultsRoot: string, runId: string): string {
  return join(resultsRoot, runId)
}

/** Ids tried for one record before giving up: `<id>`, then `<id>-2` .. `<id>-<MAX_ID_SUFFIX>`. */
const MAX_ID_SUFFIX = 1_000

/**
 * Validates a record and writes it as `<dir>/<id>.json`, atomically, the moment a measurement ends, so a crash later
 * in the run loses nothing. A record never replaces another: when `<id>.json` exists (two suites of one run measured
 * setups with the same labels, e.g. the scaling suite and the scaling validation on different inputs), it is written
 * as `<id>-2`, `<id>-3`, ... with its `id` changed to match, and the returned record says which.
 * @throws InvalidResultRecordError naming the record and the first bad field; nothing is written then.
 */
export async function writeResultRecord(dir: string, record: ResultRecord): Promise<string> {
  return (await storeResultRecord(dir, record)).path
}

/**
 * As writeResultRecord; also returns the record as written (its id may carry a suffix). `replace`: the record of the
 * same id there is superseded by this one (a capacity record a job limit cut short, by its continuation's: the caller
 * decides), written over it atomically.
 */
export async function storeResultRecord(
  dir: string,
  record: ResultRecord,
  o: { replace?: boolean } = {},
): Promise<{ record: ResultRecord; path: string }> {
  // A partial record is the run journal read back (partial-records.ts); a file of one would outlive the continuation.
  if (record.state === 'partial')
    throw new InvalidResultRecordError(
      `result record '${record.id}': a partial record is read from the journal, never written`,
    )
  const parsed = ResultRecordSchema.safeParse(record)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new InvalidResultRecordError(`result record '${record.id}': ${issue.path.join('.')}: ${issue.message}`)
  }
  await mkdir(dir, { recursive: true })
  if (o.replace) {
    const path = join(dir, `${record.id}.json`)
    await writeFileAtomic(path, `${JSON.stringify(record, null, 2)}\n`)
    return { record, path }
  }
  for (let n = 1; n <= MAX_ID_SUFFIX; n++) {
    const stored = n === 1 ? record : { ...record, id: `${record.id}-${n}` }
    const path = join(dir, `${stored.id}.json`)
    if (await writeFileAtomicNew(path, `${JSON.stringify(stored, null, 2)}\n`)) return { record: stored, path }
  }
  throw new Error(`result record '${record.id}': ${MAX_ID_SUFFIX} records with this id in ${dir} already`)
}

/** Parses one record file's text; a reason instead of a throw for anything that is not a valid record. */
export function parseResultRecord(text: string, file: string): { record: ResultRecord } | { invalid: InvalidRecord } {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    // Never V8's message: it quotes the bytes around the bad token, and a file linked in from elsewhere would have
    // its first characters copied into every report that lists it.
    return { invalid: { file, reason: jsonSyntaxProblem(error, text) } }
  }
  const parsed = ResultRecordSchema.safeParse(json)
  if (parsed.success) return { record: parsed.data }
  const issue = parsed.error.issues[0]!
  // A path can hold a key of the file's own (a record's map), so it is shown escaped, as the message is.
  const where = issue.path.length > 0 ? escapeControls(issue.path.join('.')) : '(root)'
  return { invalid: { file, reason: `not a valid result record: ${where}: ${escapeControls(issue.message)}` } }
}

/**
 * The most bytes a record file may hold: 64 MiB. The largest records measured so far are about 1 MB (a capacity
 * sweep's, test/fixtures/capacity/), a log tail is kept bounded inside them, so this leaves 60 times that; and parsing
 * 64 MiB takes well under a second and a few hundred MB. A file beyond it (one linked to a device or a runaway log)
 * is refused by name, unread, instead of costing the memory of the machine and then the whole directory.
 */
export const RECORD_MAX_BYTES = 64 * 1024 * 1024

/** One record file's text, or why it was not read (not a regular file, too large, a link out of `dir`, ...). */
async function readRecordFile(file: string, dir: string): Promise<{ text: string } | { invalid: InvalidRecord }> {
  try {
    return { text: await readRegularFile(file, { maxBytes: RECORD_MAX_BYTES, inside: dir }) }
  } catch (error) {
    if (!(error instanceof FileRefusedError)) throw error
    return { invalid: { file, reason: error.reason } }
  }
}

/**
 * Every record in a run directory, sorted by file name, plus every file that was not a valid record with the reason:
 * bad files are reported, never dropped silently and never fatal. Temporary files of unfinished writes are ignored.
 * This is the reader of run directories for `report`, `capacity`, `history add` and the reporter: each `*.json` is
 * read as a regular file of at most RECORD_MAX_BYTES, never waited on (a FIFO is refused, not opened for a writer),
 * links followed only inside `dir`; the reason of a refused file names the kind of problem, never the file's bytes.
 * @throws only when the directory itself cannot be read.
 */
export async function readResultRecords(dir: string): Promise<{ records: ResultRecord[]; invalid: InvalidRecord[] }> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.json') && !name.startsWith('.')).sort()
  const records: ResultRecord[] = []
  const invalid: InvalidRecord[] = []
  for (const name of names) {
    const file = join(dir, name)
    const read = await readRecordFile(file, dir)
    const outcome = 'text' in read ? parseResultRecord(read.text, file) : read
    if ('record' in outcome) records.push(outcome.record)
    else invalid.push(outcome.invalid)
  }
  return { records, invalid }
}

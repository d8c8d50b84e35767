/**
 * What a run directory holds for its readers (`report`, `capacity`, `history add`, the reporter): its records, and for
 * every measurement of its run journal that has no record yet (its invocation was stopped or killed mid-way) a
 * partial record built from the runs it kept: state `partial`, no verdicts, no suite figures (`stats` empty: those
 * are the suite's analysis of a whole measurement), the runs as they were measured. Built on every read, never written:
 * the journal is its one copy, and a continuation that adds runs or writes the record changes what the next read sees.
 */
import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { type JournalMeasurement, readJournal } from './run-journal.ts'
import type { ResultRecord } from './schema/index.ts'
import { type InvalidRecord, readResultRecords } from './store.ts'

export interface RunDirectoryContents {
  /** Every record, partial ones (state `partial`) after the written ones. */
  records: ResultRecord[]
  invalid: InvalidRecord[]
}

/** `<id>` or `<id>-<n>`: the file names storeResultRecord gives a record of that id. */
const isRecordOf = (recordId: string, id: string) =>
  recordId === id || (recordId.startsWith(`${id}-`) && /^\d+$/.test(recordId.slice(id.length + 1)))

/** Every work directory of a run: `work/` and, in campaign runs, `work/<task>/` (which hold the journal). */
async function workDirs(runDir: string): Promise<string[]> {
  const work = join(runDir, 'work')
  if (!existsSync(work)) return []
  const tasks = (await readdir(work, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && existsSync(join(work, e.name, 'measurements')))
    .map((e) => join(work, e.name))
  return [work, ...tasks]
}

function partialRecord(id: string, parts: JournalMeasurement[]): ResultRecord {
  const first = parts[0]!.entry
  const seen = new Set<string>()
  const runs = parts
    .flatMap((m) => m.runs)
    .sort((a, b) => a.finishedAt.localeCompare(b.finishedAt))
    .filter((r) => {
      const identity = `${r.measured.label}\u0000${r.measured.run.logPath}\u0000${r.measured.run.startedAt}`
      if (seen.has(identity)) return false
      seen.add(identity)
      return true
    })
  const counted = runs.filter((r) => !r.measured.warmup).length
  const planned = parts.reduce((n, m) => n + m.entry.arms.length * m.entry.plannedRuns, 0)
  const used = parts.flatMap((m) => m.entry.provenance.input?.used ?? [])
  const input = first.provenance.input && {
    ...first.provenance.input,
    used: [...new Map(used.map((u) => [u.file, u])).values()],
  }
  return {
    schemaVersion: 1,
    id,
    kind: first.purpose.kind,
    name: first.purpose.name,
    state: 'partial',
    reason: `interrupted: ${counted} of ${planned} measured run(s) kept; run the same command again to continue it (its figures are provisional until then)`,
    kept: { runs: counted, planned: Math.max(planned, counted) },
    createdAt: runs.at(-1)?.finishedAt ?? first.startedAt,
    provenance: { ...first.provenance, input },
    runs: runs.map((r) => r.measured),
    stats: {},
    thresholds: first.thresholds,
    verdicts: [],
  }
}

/**
 * The records of a run directory and the partial records of its journal (see the file's comment). Journal files that
 * cannot be read are listed with the invalid records, by name.
 * @throws only when the directory itself cannot be read.
 */
export async function readRunDirectory(dir: string): Promise<RunDirectoryContents> {
  const { records, invalid } = await readResultRecords(dir)
  const byPurpose = new Map<string, JournalMeasurement[]>()
  for (const workDir of await workDirs(dir)) {
    const journal = await readJournal(workDir)
    for (const p of journal.problems) invalid.push({ file: p.file, reason: `run journal: ${p.reason}` })
    for (const m of journal.measurements) {
      const id = m.entry.purpose.id
      if (records.some((r) => isRecordOf(r.id, id))) continue
      byPurpose.set(id, [...(byPurpose.get(id) ?? []), m])
    }
  }
  const partial = [...byPurpose].flatMap(([id, parts]) =>
    parts.some((m) => m.runs.length > 0) ? [partialRecord(id, parts)] : [],
  )
  return { records: [...records, ...partial], invalid }
}

/** Measurements of the run's journal that have no record (what a run left unfinished), by record id. */
export async function unfinishedMeasurements(dir: string): Promise<string[]> {
  const { records } = await readRunDirectory(dir)
  return records.filter((r) => r.state === 'partial').map((r) => r.id)
}

/**
 * What a run directory holds for its readers (`report`, `capacity`, `history add`, the reporter): its records, and for
 * every measurement of its run journal that has no record yet (its invocation was stopped or killed mid-way) a
 * partial record built from the runs it kept: state `partial`, no verdicts, no suite figures (`stats` empty: those
 * are the suite's analysis of a whole measurement), the runs as they were measured. Built on every read, never written:
 * the journal is its one copy, and a continuation that adds runs or writes the record changes what the next read sees.
 */
import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { isRunOf, type JournalMeasurement, readJournal } from './run-journal.ts'
import { keyDifferences, type RunKey } from './run-key.ts'
import { isRecordOf, runIdentity, sameRuns } from './same-runs.ts'
import type { ResultRecord } from './schema/index.ts'
import { type InvalidRecord, readResultRecords } from './store.ts'

export interface RunDirectoryContents {
  /** Every record, partial ones (state `partial`) after the written ones. */
  records: ResultRecord[]
  invalid: InvalidRecord[]
}

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
      const identity = runIdentity(r.measured)
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
 * The records but copies: a record `<id>-<n>` with the very runs of `<id>` is the same measurement written twice (a
 * finished run run again by code before the store refused that): named, and left out of every reader's count.
 */
function withoutCopies(dir: string, records: ResultRecord[], invalid: InvalidRecord[]): ResultRecord[] {
  return records.filter((r) => {
    const original = records.find((k) => r.id !== k.id && isRecordOf(r.id, k.id) && sameRuns(k, r))
    if (!original) return true
    invalid.push({
      file: join(dir, `${r.id}.json`),
      reason: `a copy of record '${original.id}' (the same runs, written again when its finished run was run again): left out`,
    })
    return false
  })
}

/** An arm's key in a measurement: the one it stored, else its newest run's (journals from before keys were stored). */
function armKey(m: JournalMeasurement, label: string): RunKey | null {
  const stored = m.entry.arms.find((a) => a.label === label)?.key
  if (stored) return stored
  return m.runs.filter((r) => isRunOf(r.measured.label, label)).at(-1)?.key ?? null
}

/**
 * The measurements of one record that may be shown together: the newest, and the others whose arms of the same label
 * were measured under the same key (a capacity top-up beside its planned arms). A measurement of another key (the same
 * record continued with other settings, say another record count) is named in `invalid` and left out: pooling its
 * runs would show one figure of two inputs.
 */
function oneKey(id: string, parts: JournalMeasurement[], invalid: InvalidRecord[]): JournalMeasurement[] {
  const newest = parts.reduce((a, b) => (b.entry.startedAt > a.entry.startedAt ? b : a))
  return parts.filter((m) => {
    if (m === newest) return true
    for (const arm of m.entry.arms) {
      const [mine, theirs] = [armKey(m, arm.label), armKey(newest, arm.label)]
      const differences = mine && theirs ? keyDifferences(mine, theirs) : []
      if (differences.length === 0) continue
      invalid.push({
        file: m.file,
        reason: `run journal: its ${m.runs.length} run(s) left out of '${id}': measured under another key than its newest measurement (${basename(newest.file)}): ${differences.join('; ')}`,
      })
      return false
    }
    return true
  })
}

/**
 * The records of a run directory and the partial records of its journal (see the file's comment). Journal files that
 * cannot be read are listed with the invalid records, by name.
 * @throws only when the directory itself cannot be read.
 */
export async function readRunDirectory(dir: string): Promise<RunDirectoryContents> {
  const read = await readResultRecords(dir)
  const { invalid } = read
  const records = withoutCopies(dir, read.records, invalid)
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
  const partial = [...byPurpose].flatMap(([id, all]) => {
    const parts = oneKey(id, all, invalid)
    return parts.some((m) => m.runs.length > 0) ? [partialRecord(id, parts)] : []
  })
  return { records: [...records, ...partial], invalid }
}

/** Measurements of the run's journal that have no record (what a run left unfinished), by record id. */
export async function unfinishedMeasurements(dir: string): Promise<string[]> {
  const { records } = await readRunDirectory(dir)
  return records.filter((r) => r.state === 'partial').map((r) => r.id)
}

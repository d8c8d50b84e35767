/**
 * Turns a suite's measurements and analysis into a ResultRecord and writes it at once (atomic, validated) into the
 * run directory, so a crash in a later suite loses nothing.
 */
import { join } from 'node:path'
import { collectProvenance } from '../results/provenance.ts'
import { isRecordOf, sameRuns } from '../results/same-runs.ts'
import type { ResultKind, ResultRecord, Verdict } from '../results/schema/index.ts'
import { readResultRecords, storeResultRecord } from '../results/store.ts'
import { checkWriter } from '../results/writer-lock.ts'
import { slug } from './configuration.ts'
import type { SuiteContext } from './context.ts'
import type { MeasuredConfiguration, MeasureOptions } from './measure-configuration.ts'

/** Measurement options without the context's parts (work folder, profile, run journal). */
export type SuiteMeasure = Omit<MeasureOptions, 'profile' | 'workDir' | 'journal'>

/** A suite's written record and where it lies. */
export interface SuiteOutcome {
  record: ResultRecord
  path: string
}

export interface RecordInput {
  kind: ResultKind
  /** Unique within the run; becomes the file name (in a campaign task, with `.<task>` appended). */
  id: string
  name: string
  measurements: readonly MeasuredConfiguration[]
  stats: Record<string, unknown>
  verdicts: Verdict[]
  /** Default `completed`; `failed` or `skipped` need a reason. */
  state?: ResultRecord['state']
  reason?: string | null
}

/** The input file of a `predict` command line (UPSTREAM.md: `predict INPUT_FASTA ...`). */
function inputOf(args: readonly string[] | undefined): string[] {
  const at = args?.indexOf('predict') ?? -1
  const input = at >= 0 ? args?.[at + 1] : undefined
  return input ? [input] : []
}

/** The id (and file name) of a suite's record: its slug, with the campaign task appended in a task. */
export function recordId(ctx: Pick<SuiteContext, 'task'>, id: string): string {
  return ctx.task ? `${slug(id)}.${ctx.task}` : slug(id)
}

/** Builds the record (provenance collected now, target versions from the runs' logs). */
export async function buildRecord(ctx: SuiteContext, input: RecordInput): Promise<ResultRecord> {
  const observations = input.measurements.flatMap((m) => m.observations)
  const targetVersions = Object.assign({}, ...observations.map((o) => o.versions)) as Record<string, string>
  const provenance = await collectProvenance({
    runId: ctx.runId,
    profile: ctx.profile.name,
    targetDir: ctx.targetDir,
    targetVersions,
    input: ctx.inputs?.provenanceOf(observations.flatMap((o) => inputOf(o.measured.run.command?.args))) ?? null,
  })
  return {
    schemaVersion: 1,
    id: recordId(ctx, input.id),
    kind: input.kind,
    name: input.name,
    state: input.state ?? 'completed',
    reason: input.reason ?? null,
    createdAt: new Date().toISOString(),
    provenance,
    runs: observations.map((o) => o.measured),
    stats: input.stats,
    thresholds: ctx.thresholds,
    verdicts: input.verdicts,
  }
}

/**
 * Builds and writes the record; returns it with the file's path.
 * @throws InvalidResultRecordError when the record does not validate (nothing written then).
 */
export async function writeSuiteRecord(
  ctx: SuiteContext,
  input: RecordInput,
  supersedes?: (stored: ResultRecord) => boolean,
): Promise<{ record: ResultRecord; path: string }> {
  return storeSuiteRecord(ctx, await buildRecord(ctx, input), supersedes)
}

/**
 * Writes a built record into the context's run, fenced: an invocation that lost the run to another (suspended past
 * the writer lock's lease) adds no record beside that one's.
 * @throws WriterLostError (nothing written); InvalidResultRecordError.
 */
export async function storeSuiteRecord(
  ctx: SuiteContext,
  record: ResultRecord,
  /**
   * Whether the record of the same id there is one this record supersedes (a capacity record a job limit cut short:
   * capacity/answered.ts): written over it, so the run holds one answer, not the cut one beside it as `<id>-2`.
   */
  supersedes?: (stored: ResultRecord) => boolean,
): Promise<{ record: ResultRecord; path: string }> {
  checkWriter(ctx.workDir, ctx.writer.token)
  // A finished run run again (a requeued task with its run ID pinned) reuses every kept run: its record is there.
  const stored = await readResultRecords(ctx.resultsDir).catch(() => ({ records: [] as ResultRecord[] }))
  const copyOf = stored.records.find((r) => isRecordOf(r.id, record.id) && sameRuns(r, record))
  if (copyOf) return { record: copyOf, path: join(ctx.resultsDir, `${copyOf.id}.json`) }
  const replace = supersedes !== undefined && stored.records.some((r) => r.id === record.id && supersedes(r))
  return storeResultRecord(ctx.resultsDir, record, { replace })
}

/** The first failure among the measurements, as a record reason; null when every measurement ran to its end. */
export function failureReason(measurements: readonly MeasuredConfiguration[]): string | null {
  const failed = measurements.find((m) => m.failure !== null)
  if (!failed?.failure) return null
  const f = failed.failure
  return `${f.label} ended as ${f.exitClass}: ${f.reason}`
}

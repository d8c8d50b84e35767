/**
 * The capacity answer a run already holds for a question (issues 44, 58). The main job runs the capacity file and the
 * settings study in one run; the study's answer for the default setting is the same question, and it measured it
 * again and printed a second answer under the same name. One question gets one answer in a run: whichever file
 * measures it first writes it, and the other takes that record as it is.
 *
 * The question is what decides the answer (issue 58: on one pinned run id, sizes 16 / 32 then 24 / 48 handed back the
 * 16 / 32 answer, and a new sample the old sample's): the configurations as they run, the sizes, the input, the stop
 * rule, and a budget no smaller than the one asked (more GPU-minutes answer the same question at least as surely; the
 * study asks its default's with half the capacity file's). A record under the same id that answers another question
 * is left as it is, and this one is measured under an id of its own, said in one line.
 *
 * And only an answer worked out here: under the invocation's run key (the GPUs and driver, the target's version, the
 * measuring code, the user's input) by this version of the answering code. A pinned run continued on another host, or
 * after a code change, reused none of its kept runs under another key but took its answers as they were (an H100's
 * v1.0 answer beside an H200's screen in one study). Such a record is asked again under its id, said in one line:
 * the runs the journal keeps under this key replay, the rest are measured.
 */
import { createHash } from 'node:crypto'
import type { CapacityStopRule } from '../config/capacity-targets.ts'
import { type Configuration, configKey } from '../engine/configuration.ts'
import type { SuiteContext } from '../engine/context.ts'
import { contextEnvironment } from '../engine/journal-options.ts'
import { recordId } from '../engine/record.ts'
import { answeringCodeVersion } from '../engine/run-keys.ts'
import type { ResolvedInput } from '../input/resolver.ts'
import { keyDifferences, type RunKey } from '../results/run-key.ts'
import type { ResultRecord } from '../results/schema/index.ts'
import { readResultRecords } from '../results/store.ts'

/** What a capacity answer answers: kept in its record's stats (`question`). */
export interface CapacityQuestion {
  /** A hash of everything but the budget: configurations, sizes, input, stop rule. */
  key: string
  budgetGpuMinutes: number
  /** `1 GPU at 16 / 32 records of sha256 1a2b3c4d5e6f, stop decided, budget 2 GPU-min`: what a line names. */
  text: string
  /**
   * Where and by what it was answered (answerEnvironment): the run key's shared part and the answering code's version.
   * Absent in records written before it was kept: where they were answered is unknown.
   */
  environment?: RunKey
}

/** The environment an answer is worked out in by this invocation: its run key's shared part, the answering code. */
export async function answerEnvironment(ctx: SuiteContext): Promise<RunKey> {
  return { ...(await contextEnvironment(ctx)), answering: await answeringCodeVersion() }
}

const count = (n: number) => n.toLocaleString('en-US')

export function capacityQuestion(
  configs: readonly Configuration[],
  inputs: readonly ResolvedInput[],
  rule: CapacityStopRule,
  budgetGpuMinutes: number,
  environment: RunKey,
): CapacityQuestion {
  const source = inputs[0]?.source?.sha256 ?? ''
  const canonical = JSON.stringify({
    configs: configs.map((c) => configKey(c, '')),
    sizes: inputs.map((i) => i.records),
    source,
    rule,
  })
  return {
    key: createHash('sha256').update(canonical).digest('hex').slice(0, 16),
    budgetGpuMinutes,
    text: `${configs.map((c) => c.label).join(' + ')} at ${inputs.map((i) => count(i.records)).join(' / ')} records of sha256 ${source.slice(0, 12)}, stop ${rule}, budget ${Number(budgetGpuMinutes.toFixed(2))} GPU-min`,
    environment,
  }
}

/** The question a record answers, where it kept one (records written before issue 58 did not). */
export const questionOf = (r: ResultRecord): CapacityQuestion | null =>
  ((r.stats as { question?: CapacityQuestion }).question ?? null) as CapacityQuestion | null

/**
 * What differs between where `q` was answered and where `asked` is (keyDifferences' phrases); empty when they are the
 * same. A question kept without its environment was answered somewhere unknown.
 */
function elsewhere(q: CapacityQuestion, asked: CapacityQuestion): string[] {
  if (!q.environment) return ['where it was answered (not kept by the code that wrote it)']
  return keyDifferences(q.environment, asked.environment ?? {})
}

/** Whether `record` answers `asked`: the same question, its budget no smaller, answered in the same environment. */
export function answers(record: ResultRecord, asked: CapacityQuestion): boolean {
  const q = questionOf(record)
  return (
    q !== null &&
    q.key === asked.key &&
    q.budgetGpuMinutes >= asked.budgetGpuMinutes - 1e-9 &&
    elsewhere(q, asked).length === 0
  )
}

/**
 * Whether the job limit stopped `record` short (its design, or its held-out check not run: capacity/suite.ts
 * `deadlineMs`): such a record is no answer yet, and the same question is measured again under its id, the runs it
 * kept replayed from the journal.
 */
export function cutByJobLimit(record: ResultRecord): boolean {
  const stats = record.stats as {
    sequential?: { stop?: string } | null
    sizeChoice?: { heldOut?: { jobLimit?: boolean } | null } | null
  }
  return stats.sequential?.stop === 'job-limit' || stats.sizeChoice?.heldOut?.jobLimit === true
}

/** Where the run stands for a question under record id `purposeId` (capacity/purpose.ts). */
export type Answered =
  /** A completed record answers it: taken as it is. */
  | { state: 'answered'; record: ResultRecord }
  /** A completed record under the id answers another question: this one gets an id of its own. */
  | { state: 'other'; record: ResultRecord; suffix: string }
  /**
   * None: measured under the id (a failed record there, or one a job limit cut short, is measured again). `line`: the
   * record there answers this question, worked out elsewhere (answers): asked again, and why.
   */
  | { state: 'none'; line?: string }

/** The id suffix of a question measured beside another under one record id. */
export const questionSuffix = (q: CapacityQuestion) => `~${q.key.slice(0, 8)}`

/**
 * The record of `purposeId` in the context's run and whether it answers `asked`; a run directory that cannot be read
 * holds none.
 */
export async function answeredInRun(
  ctx: Pick<SuiteContext, 'resultsDir' | 'task'>,
  purposeId: string,
  asked: CapacityQuestion,
): Promise<Answered> {
  const { records } = await readResultRecords(ctx.resultsDir).catch(() => ({ records: [] as ResultRecord[] }))
  const completed = (id: string) =>
    records.find((r) => r.kind === 'capacity' && r.id === recordId(ctx, id) && r.state === 'completed')
  const own = completed(purposeId)
  if (!own) return { state: 'none' }
  const q = questionOf(own)
  // Cut short by a job limit: the same question goes on under its id; another one under an id of its own.
  if (cutByJobLimit(own) && q?.key === asked.key) return { state: 'none' }
  if (answers(own, asked)) return { state: 'answered', record: own }
  const differences = q?.key === asked.key ? elsewhere(q, asked) : []
  if (differences.length > 0)
    return {
      state: 'none',
      line: `capacity: record ${own.id} in this run answers this question, worked out under another key (${differences.join('; ')}): asked again under its id, its runs kept under this key replayed`,
    }
  const suffix = questionSuffix(asked)
  const beside = completed(`${purposeId}${suffix}`)
  return beside && answers(beside, asked) && !cutByJobLimit(beside)
    ? { state: 'answered', record: beside }
    : { state: 'other', record: own, suffix }
}

/**
 * A completed answer to `asked` that the run holds under any record id, none a job limit cut short (issue 56): the same
 * command lines at the same sizes under another name. The study's `no --parallel` winner runs the capacity file's v1.0
 * baseline command line at the sizes that path plans; measured again, it printed a second v1.0 answer of the run.
 */
export async function answerInRun(
  ctx: Pick<SuiteContext, 'resultsDir'>,
  asked: CapacityQuestion,
): Promise<ResultRecord | null> {
  const { records } = await readResultRecords(ctx.resultsDir).catch(() => ({ records: [] as ResultRecord[] }))
  return (
    records.find((r) => r.kind === 'capacity' && r.state === 'completed' && answers(r, asked) && !cutByJobLimit(r)) ??
    null
  )
}

/** The line that says so, where the measurement's line after every run would have gone. */
export const answeredLine = (name: string, record: ResultRecord) =>
  `${name}: answered already in this run (record ${record.id}, ${record.runs.length} runs): taken as it is, not measured again`

/** The line for a record of the same id that answers another question. */
export function otherQuestionLine(record: ResultRecord, asked: CapacityQuestion, suffix: string): string {
  const theirs = questionOf(record)?.text ?? 'a question it did not record (written before questions were kept)'
  return `capacity: record ${record.id} in this run answers another question (${theirs}); this one (${asked.text}) is measured anew under ${record.id}${suffix}`
}

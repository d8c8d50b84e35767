/**
 * What a run directory keeps of each vitest invocation that wrote into it, beside its records: how the invocation
 * ended and its benchmark results (tinybench's figures are not records). `virnucpro-bench report` then rebuilds the
 * reports as the reporter wrote them, benchmark table and outcome included; the nightly job rebuilds them after adding
 * the night to the history, so its trend charts hold the night itself. One file an invocation, written atomically and
 * never over another: `<run dir>/invocations/<finishedAt>-<pid>.json`.
 */
import { existsSync, mkdirSync } from 'node:fs'
import { mkdir, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomicNew } from '../platform/atomic-write.ts'
import { writeFileAtomicSync } from '../platform/atomic-write-sync.ts'
import { jsonSyntaxProblem } from '../platform/json-problem.ts'
import { escapeControls } from '../platform/one-line.ts'
import { FileRefusedError, readRegularFile } from '../platform/regular-file.ts'

/** One benchmark task as vitest's `onTestCaseBenchmark` reports it, reduced to what reports show (latency in ms). */
export interface BenchmarkTaskResult {
  /** `<test name> > <bench label>`. */
  name: string
  project: string
  latencyMs: { mean: number; p50: number; p99: number; min: number; max: number; sd: number; rme: number }
  samples: number
  /** Operations per second (tinybench's throughput mean). */
  opsPerS: number
}

/** How the vitest run that produced the records ended; reports say when they cover an incomplete run. */
export type RunOutcome = { state: 'passed' } | { state: 'failed' | 'interrupted' | 'unknown'; note: string }

export const INVOCATIONS_DIR = 'invocations'

const Latency = z.object({
  mean: z.number(),
  p50: z.number(),
  p99: z.number(),
  min: z.number(),
  max: z.number(),
  sd: z.number(),
  rme: z.number(),
})
const InvocationSchema = z.object({
  schemaVersion: z.literal(1),
  finishedAt: z.iso.datetime(),
  outcome: z.union([
    z.object({ state: z.literal('passed') }),
    z.object({ state: z.enum(['failed', 'interrupted', 'unknown']), note: z.string() }),
  ]),
  benchmarks: z.array(
    z.object({
      name: z.string(),
      project: z.string(),
      latencyMs: Latency,
      samples: z.number(),
      opsPerS: z.number(),
    }),
  ),
})

export type Invocation = z.infer<typeof InvocationSchema>

/**
 * Stores one invocation's outcome and benchmarks in `runDir`.
 * @throws the fs error when the file cannot be written (the caller says so; reports are written already).
 */
export async function storeInvocation(runDir: string, invocation: Omit<Invocation, 'schemaVersion'>): Promise<string> {
  const stamp = invocation.finishedAt.replace(/[^0-9A-Za-z]/g, '')
  await mkdir(join(runDir, INVOCATIONS_DIR), { recursive: true })
  for (let n = 0; ; n++) {
    const path = join(runDir, INVOCATIONS_DIR, `${stamp}-${process.pid}${n === 0 ? '' : `-${n}`}.json`)
    const text = `${JSON.stringify({ schemaVersion: 1, ...invocation }, null, 2)}\n`
    if (await writeFileAtomicNew(path, text)) return path
  }
}

/**
 * As storeInvocation, synchronously: a graceful stop (src/engine/graceful-stop.ts) records its `interrupted` end in a
 * signal handler, where nothing asynchronous runs.
 * @throws the fs error when the file cannot be written.
 */
export function storeInvocationSync(runDir: string, invocation: Omit<Invocation, 'schemaVersion'>): string {
  const stamp = invocation.finishedAt.replace(/[^0-9A-Za-z]/g, '')
  mkdirSync(join(runDir, INVOCATIONS_DIR), { recursive: true })
  for (let n = 0; ; n++) {
    const path = join(runDir, INVOCATIONS_DIR, `${stamp}-${process.pid}${n === 0 ? '' : `-${n}`}.json`)
    if (existsSync(path)) continue
    writeFileAtomicSync(path, `${JSON.stringify({ schemaVersion: 1, ...invocation }, null, 2)}\n`)
    return path
  }
}

/** An invocation file holds a few kB (one entry a benchmark): the bound of a record file is ample. */
const INVOCATION_MAX_BYTES = 64 * 1024 * 1024

/** An invocation file's content, or why it is none; read as a run directory's records are (src/platform/regular-file.ts). */
async function readInvocation(file: string, runDir: string): Promise<{ invocation: Invocation } | { reason: string }> {
  let text: string
  try {
    text = await readRegularFile(file, { maxBytes: INVOCATION_MAX_BYTES, inside: runDir })
  } catch (error) {
    if (error instanceof FileRefusedError) return { reason: error.reason }
    throw error
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return { reason: jsonSyntaxProblem(error, text) }
  }
  const parsed = InvocationSchema.safeParse(json)
  if (parsed.success) return { invocation: parsed.data }
  const issue = parsed.error.issues[0]!
  return { reason: escapeControls(`${issue.path.join('.')}: ${issue.message}`) }
}

/** The invocations stored in `runDir`, oldest first, and each file that is not one (named, with why). */
export async function readInvocations(
  runDir: string,
): Promise<{ invocations: Invocation[]; invalid: { file: string; reason: string }[] }> {
  const dir = join(runDir, INVOCATIONS_DIR)
  const names = await readdir(dir).catch(() => [] as string[])
  const invocations: Invocation[] = []
  const invalid: { file: string; reason: string }[] = []
  for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort()) {
    const file = join(dir, name)
    const outcome = await readInvocation(file, runDir)
    if ('invocation' in outcome) invocations.push(outcome.invocation)
    else invalid.push({ file, reason: outcome.reason })
  }
  return { invocations: invocations.sort((a, b) => a.finishedAt.localeCompare(b.finishedAt)), invalid }
}

/** Each distinct note once, with how many invocations ended with it (a campaign's tasks often end alike). */
function countedNotes(ended: readonly Invocation[]): string {
  const counts = new Map<string, number>()
  for (const i of ended) {
    const note = 'note' in i.outcome ? i.outcome.note : ''
    counts.set(note, (counts.get(note) ?? 0) + 1)
  }
  return [...counts].map(([note, n]) => (n > 1 ? `${note} (${n} invocations)` : note)).join('; ')
}

/**
 * How the invocations ended, together: failed when one failed, else interrupted when one was, else passed; none
 * stored is unknown (records written before invocations were kept, or by another tool).
 */
export function combinedOutcome(invocations: readonly Invocation[]): RunOutcome {
  const rebuilt = 'rebuilt from stored records'
  if (invocations.length === 0)
    return { state: 'unknown', note: `${rebuilt}; how the original run ended is not recorded` }
  // An interrupted invocation that a later one continued and finished (src/engine/continuation.ts) left nothing undone.
  const lastPassed = invocations.findLast((i) => i.outcome.state === 'passed')?.finishedAt ?? ''
  const standing = invocations.filter((i) => i.outcome.state !== 'interrupted' || i.finishedAt > lastPassed)
  for (const state of ['failed', 'interrupted'] as const) {
    const ended = standing.filter((i) => i.outcome.state === state)
    if (ended.length > 0)
      return {
        state,
        note: `${rebuilt}: ${ended.length} of ${invocations.length} vitest invocation(s) ${state}: ${countedNotes(ended)}`,
      }
  }
  if (standing.every((i) => i.outcome.state === 'passed')) return { state: 'passed' }
  return { state: 'unknown', note: `${rebuilt}; an invocation's end was not known` }
}

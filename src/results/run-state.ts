/**
 * How the invocation that last wrote a work directory ended: `running` while it runs (and still, after a SIGKILL, when
 * its writer lock has gone quiet), `interrupted` after a graceful stop (SIGTERM, SIGINT), `finished` when it ran to its
 * end. With it, the key its runs were measured under, so that the next invocation can continue an interrupted run
 * only when it would measure the same thing (src/engine/continuation.ts). One small file, `<work dir>/state.json`,
 * rewritten atomically; the writer lock (writer-lock.ts) says whether its writer is alive.
 */
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../platform/atomic-write.ts'
import { writeFileAtomicSync } from '../platform/atomic-write-sync.ts'
import { jsonSyntaxProblem } from '../platform/json-problem.ts'
import { escapeControls } from '../platform/one-line.ts'

export const STATE_FILE = 'state.json'

const RunStateSchema = z.object({
  format: z.literal(1),
  state: z.enum(['running', 'interrupted', 'finished']),
  /** The run key's shared part (src/engine/run-keys.ts environmentKey) the runs were measured under. */
  key: z.record(z.string(), z.unknown()),
  startedAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  /** The command line, as a reminder of what to run again to continue. */
  command: z.array(z.string()),
})
export type RunState = z.infer<typeof RunStateSchema>

export async function writeRunState(workDir: string, state: RunState): Promise<void> {
  await writeFileAtomic(join(workDir, STATE_FILE), `${JSON.stringify(state)}\n`)
}

/** For signal handlers, where nothing asynchronous runs. */
export function writeRunStateSync(workDir: string, state: RunState): void {
  writeFileAtomicSync(join(workDir, STATE_FILE), `${JSON.stringify(state)}\n`)
}

/** What a work directory's state file holds: none, a run state, or a file there that is not one this code can read. */
export type RunStateRead =
  | { status: 'absent' }
  | { status: 'read'; state: RunState }
  | { status: 'damaged'; file: string; problem: string }

/** What is wrong with a state file's text (the file is written whole, atomically), or its state. */
function parse(text: string): { state: RunState } | { problem: string } {
  if (text.trim() === '') return { problem: 'empty (cut off or damaged)' }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    // Never V8's message: it quotes the bytes around the bad token (json-problem.ts).
    return { problem: jsonSyntaxProblem(error, text) }
  }
  const parsed = RunStateSchema.safeParse(json)
  if (parsed.success) return { state: parsed.data }
  const issue = parsed.error.issues[0]!
  return { problem: `not a run state this version reads (${issue.path.join('.') || 'top level'}: ${issue.message})` }
}

/** What a state file's read gave (its text, or the error reading it) says of it. */
function readOutcome(file: string, got: string | NodeJS.ErrnoException): RunStateRead {
  if (typeof got !== 'string') {
    // A missing work directory, or one without a state file, holds no state; anything else is a file not read.
    if (got.code === 'ENOENT' || got.code === 'ENOTDIR') return { status: 'absent' }
    return { status: 'damaged', file, problem: `cannot be read (${got.code ?? escapeControls(got.message)})` }
  }
  const parsed = parse(got)
  return 'state' in parsed ? { status: 'read', ...parsed } : { status: 'damaged', file, ...parsed }
}

/** The state file of `workDir`, told apart: absent, read, or damaged (with the file and what is wrong). */
export async function inspectRunState(workDir: string): Promise<RunStateRead> {
  const file = join(workDir, STATE_FILE)
  return readOutcome(file, await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => error))
}

/** The state of `workDir`, or null when there is none or it cannot be read (inspectRunState tells the two apart). */
export async function readRunState(workDir: string): Promise<RunState | null> {
  const read = await inspectRunState(workDir)
  return read.status === 'read' ? read.state : null
}

export function readRunStateSync(workDir: string): RunState | null {
  const file = join(workDir, STATE_FILE)
  let got: string | NodeJS.ErrnoException
  try {
    got = readFileSync(file, 'utf8')
  } catch (error) {
    got = error as NodeJS.ErrnoException
  }
  const read = readOutcome(file, got)
  return read.status === 'read' ? read.state : null
}

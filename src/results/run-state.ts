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

function parse(text: string | null): RunState | null {
  if (text === null) return null
  try {
    const parsed = RunStateSchema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** The state of `workDir`, or null when there is none (or it cannot be read: then nothing is continued from it). */
export async function readRunState(workDir: string): Promise<RunState | null> {
  return parse(await readFile(join(workDir, STATE_FILE), 'utf8').catch(() => null))
}

export function readRunStateSync(workDir: string): RunState | null {
  try {
    return parse(readFileSync(join(workDir, STATE_FILE), 'utf8'))
  } catch {
    return null
  }
}

/**
 * What earlier invocations of this results root measured under the same key (the code that measures, the target, the
 * GPUs, the driver, the user's input: run-keys.ts), read from their progress ledgers (ledger.ts): per test file, the
 * runs the newest invocation that ran it to its end measured and how long the file took. The only honest forecast an
 * invocation can give before its first run. And for a continuation, the runs its own earlier invocations kept, which
 * this one gets back instead of measuring.
 */
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { FileRefusedError, readRegularFile } from '../../platform/regular-file.ts'
import { isRunId } from '../../results/run-id.ts'
import { keyDifferences, type RunKey } from '../../results/run-key.ts'
import { readRunState } from '../../results/run-state.ts'
import { runDirectory } from '../../results/store.ts'
import { workDirOf } from '../context.ts'
import { type LedgerLine, PROGRESS_DIR, parseLedger } from './ledger.ts'

/** One test file as one invocation ran it to its end. */
export interface FileSummary {
  /** Runs it measured (warm-ups included) and runs the journal gave it back. */
  runs: number
  reused: number
  /** From the file's start to its end, ms. */
  spanMs: number
  runId: string
}

/** Runs an invocation measured: measured runs and warm-ups apart (the count every other output gives), their ms. */
export interface KeptRuns {
  runs: number
  warmups: number
  wallMs: number
}

export interface EarlierProgress {
  /** Per test file (relative to the repository), the newest invocation under the same key that ran it to its end. */
  files: Record<string, FileSummary>
  /** Per test file, the runs and warm-ups this run's earlier invocations measured (a continuation reuses them), their ms. */
  kept: Record<string, KeptRuns>
}

/** Run directories looked at, newest first: enough for the last few invocations, bounded for a root of years. */
const MAX_RUNS_LOOKED_AT = 50
/** A ledger holds a line per event: a few MB at most even for a study. */
const LEDGER_MAX_BYTES = 16 * 1024 * 1024

/** The files one ledger ran to their end, each with its runs and span. */
export function fileSummaries(lines: readonly LedgerLine[], runId: string): Map<string, FileSummary> {
  const starts = new Map<string, number>()
  const out = new Map<string, FileSummary>()
  const counts = new Map<string, { runs: number; reused: number }>()
  for (const line of lines) {
    if (line.type === 'file-start') starts.set(line.file, line.at)
    if (line.type === 'run') {
      const c = counts.get(line.file) ?? { runs: 0, reused: 0 }
      if (line.reused === null) c.runs += 1
      else c.reused += 1
      counts.set(line.file, c)
    }
    const start = starts.get(line.file)
    if (line.type === 'file-end' && start !== undefined)
      out.set(line.file, { ...(counts.get(line.file) ?? { runs: 0, reused: 0 }), spanMs: line.at - start, runId })
  }
  return out
}

/** The runs a ledger's invocation measured, per file: what the journal keeps of them whether or not the file ended. */
export function measuredRuns(lines: readonly LedgerLine[]): Map<string, KeptRuns> {
  const out = new Map<string, KeptRuns>()
  for (const line of lines) {
    if (line.type !== 'run' || line.reused !== null) continue
    const c = out.get(line.file) ?? { runs: 0, warmups: 0, wallMs: 0 }
    if (line.phase === 'warm-up') c.warmups += 1
    else c.runs += 1
    out.set(line.file, { ...c, wallMs: c.wallMs + line.wallMs })
  }
  return out
}

/** A work directory's ledgers, newest first, with their lines (a ledger that cannot be read is left out). */
async function ledgersOf(workDir: string, except: string): Promise<{ path: string; lines: LedgerLine[] }[]> {
  const dir = join(workDir, PROGRESS_DIR)
  const names = (await readdir(dir).catch(() => [] as string[]))
    .filter((n) => n.endsWith('.jsonl'))
    .sort()
    .reverse()
  const out: { path: string; lines: LedgerLine[] }[] = []
  for (const name of names) {
    const path = join(dir, name)
    if (path === except) continue
    const text = await readRegularFile(path, { maxBytes: LEDGER_MAX_BYTES, inside: dir }).catch((error: unknown) => {
      if (error instanceof FileRefusedError) return null
      throw error
    })
    if (text !== null) out.push({ path, lines: parseLedger(text) })
  }
  return out
}

/**
 * Reads the earlier progress of `root` under `key` (see the file's comment). `runId` is this invocation's run, whose
 * earlier invocations' runs are `kept` when it `continued`; `ledger` is this invocation's own, left out.
 */
export async function readEarlierProgress(o: {
  root: string
  task: string | null
  key: RunKey
  runId: string
  continued: boolean
  ledger: string
}): Promise<EarlierProgress> {
  const files: Record<string, FileSummary> = {}
  const kept: Record<string, KeptRuns> = {}
  const ids = (await readdir(o.root).catch(() => [] as string[])).filter(isRunId).sort().reverse()
  for (const runId of ids.slice(0, MAX_RUNS_LOOKED_AT)) {
    const workDir = workDirOf(runDirectory(o.root, runId), o.task)
    const state = await readRunState(workDir)
    if (!state || keyDifferences(state.key, o.key).length > 0) continue
    for (const { lines } of await ledgersOf(workDir, o.ledger)) {
      for (const [file, summary] of fileSummaries(lines, runId)) files[file] ??= summary
      if (runId !== o.runId || !o.continued) continue
      for (const [file, c] of measuredRuns(lines)) {
        const before = kept[file] ?? { runs: 0, warmups: 0, wallMs: 0 }
        kept[file] = {
          runs: before.runs + c.runs,
          warmups: before.warmups + c.warmups,
          wallMs: before.wallMs + c.wallMs,
        }
      }
    }
  }
  return { files, kept }
}

/** ms a file should take now by what an earlier invocation took, less the runs this one gets back; null: unknown. */
export function fileForecastMs(earlier: EarlierProgress | null, file: string): number | null {
  const summary = earlier?.files[file]
  if (!summary) return null
  return Math.max(0, summary.spanMs - (earlier?.kept[file]?.wallMs ?? 0))
}

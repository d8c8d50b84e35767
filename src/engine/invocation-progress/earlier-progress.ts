/**
 * What earlier invocations of this results root measured under the same key (the code that measures, the target, the
 * GPUs, the driver, the user's input: run-keys.ts) and the same plan (the settings that size and count the work, the
 * thresholds, the command line: plan-key.ts), read from their progress ledgers (ledger.ts): per test file, the runs the
 * newest such invocation that ran it to its end measured, how long each configuration's runs took and how long the
 * file took. The only honest forecast an invocation can give before its first run, and only from comparable work: a
 * ledger of another plan, or of none (written before plans were kept), forecasts nothing, nor does a span that ends
 * before it starts. And for a continuation, the runs its own earlier invocations kept, which this one gets back
 * instead of measuring (whatever their plan: the journal decides what is reused).
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
import type { PlanKey } from './plan-key.ts'
import type { RunPhase } from './run-events.ts'

/** One test file as one invocation ran it to its end. */
export interface FileSummary {
  /** Runs it measured (warm-ups included) and runs the journal gave it back. */
  runs: number
  reused: number
  /** From the file's start to its end, ms (always > 0: a span that ends before it starts is no evidence). */
  spanMs: number
  runId: string
  /** Per configuration (arm label), the mean wall time (ms) of the runs and warm-ups it measured; null: none. */
  armsMs: Record<string, Record<RunPhase, number | null>>
}

/** Runs an invocation measured: measured runs and warm-ups apart (the count every other output gives), their ms. */
export interface KeptRuns {
  runs: number
  warmups: number
  wallMs: number
}

export interface EarlierProgress {
  /** Per test file (relative to the repository), the newest invocation under the same key and plan that ran it to its end. */
  files: Record<string, FileSummary>
  /** Per test file, the runs and warm-ups this run's earlier invocations measured (a continuation reuses them), their ms. */
  kept: Record<string, KeptRuns>
  /** The newest invocation under the same key passed over for its plan, and what differs (its first few), or null. */
  otherPlan?: { runId: string; differences: string[] } | null
}

/** Run directories looked at of each kind: enough for the last few invocations, bounded for a root of years. */
const MAX_RUNS_LOOKED_AT = 50
/** A ledger holds a line per event: a few MB at most even for a study. */
const LEDGER_MAX_BYTES = 16 * 1024 * 1024

const mean = (values: readonly number[]): number | null =>
  values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length

/** Per file, per arm, the wall times (ms) of the runs one ledger measured (given back ones are another's; 0 is none). */
function measuredWalls(lines: readonly LedgerLine[]): Map<string, Map<string, Record<RunPhase, number[]>>> {
  const out = new Map<string, Map<string, Record<RunPhase, number[]>>>()
  for (const line of lines) {
    if (line.type !== 'run' || line.reused !== null || !(line.wallMs > 0)) continue
    const arms = out.get(line.file) ?? new Map<string, Record<RunPhase, number[]>>()
    const walls = arms.get(line.arm) ?? { 'warm-up': [], run: [] }
    walls[line.phase].push(line.wallMs)
    out.set(line.file, arms.set(line.arm, walls))
  }
  return out
}

/**
 * The files one ledger ran to their end, each with its runs, its span and its arms' mean wall times. A span that ends
 * before it starts, or at once, is left out: a clock stepped back (or a ledger written by other code) is no evidence.
 */
export function fileSummaries(lines: readonly LedgerLine[], runId: string): Map<string, FileSummary> {
  const starts = new Map<string, number>()
  const out = new Map<string, FileSummary>()
  const counts = new Map<string, { runs: number; reused: number }>()
  const walls = measuredWalls(lines)
  for (const line of lines) {
    if (line.type === 'invocation') continue
    if (line.type === 'file-start') starts.set(line.file, line.at)
    if (line.type === 'run') {
      const c = counts.get(line.file) ?? { runs: 0, reused: 0 }
      if (line.reused === null) c.runs += 1
      else c.reused += 1
      counts.set(line.file, c)
    }
    const start = starts.get(line.file)
    if (line.type !== 'file-end' || start === undefined || !(line.at - start > 0)) continue
    const armsMs = Object.fromEntries(
      [...(walls.get(line.file) ?? [])].map(([arm, w]) => [arm, { 'warm-up': mean(w['warm-up']), run: mean(w.run) }]),
    )
    out.set(line.file, { ...(counts.get(line.file) ?? { runs: 0, reused: 0 }), spanMs: line.at - start, runId, armsMs })
  }
  return out
}

/** The plan a ledger's invocation ran under (its first line), or null for a ledger written before plans were kept. */
export function ledgerPlan(lines: readonly LedgerLine[]): PlanKey | null {
  const first = lines[0]
  return first?.type === 'invocation' ? first.plan : null
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

/** This run and the run directories of `root` looked at: run IDs newest first, then pinned IDs, each kind bounded. */
async function candidateRuns(root: string, runId: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true }).catch(() => [])
  const dirs = entries.filter((e) => e.isDirectory()).map((e) => e.name)
  // Pinned IDs (VIRNUCPRO_BENCH_RUN_ID=pin1) are runs too, known by their state, not their name (issue 58).
  const dated = dirs.filter(isRunId).sort().reverse().slice(0, MAX_RUNS_LOOKED_AT)
  const pinned = dirs
    .filter((d) => !isRunId(d))
    .sort()
    .slice(0, MAX_RUNS_LOOKED_AT)
  return [...new Set([runId, ...dated, ...pinned])]
}

/**
 * Reads the earlier progress of `root` under `key` and `plan` (see the file's comment). `runId` is this invocation's
 * run, whose earlier invocations' runs are `kept` when it `continued`; `ledger` is this invocation's own, left out.
 */
export async function readEarlierProgress(o: {
  root: string
  task: string | null
  key: RunKey
  plan: PlanKey
  runId: string
  continued: boolean
  ledger: string
}): Promise<EarlierProgress> {
  const files: Record<string, FileSummary> = {}
  const kept: Record<string, KeptRuns> = {}
  let otherPlan: EarlierProgress['otherPlan'] = null
  const runs: { runId: string; workDir: string; updatedAt: string }[] = []
  for (const runId of await candidateRuns(o.root, o.runId)) {
    const workDir = workDirOf(runDirectory(o.root, runId), o.task)
    const state = await readRunState(workDir)
    if (state && keyDifferences(state.key, o.key).length === 0)
      runs.push({ runId, workDir, updatedAt: state.updatedAt })
  }
  // Newest first by when each run last changed: a pinned ID's name says nothing of when it ran.
  runs.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.runId.localeCompare(a.runId))
  for (const { runId, workDir } of runs) {
    for (const { lines } of await ledgersOf(workDir, o.ledger)) {
      const plan = ledgerPlan(lines)
      const differences = plan === null ? ['no plan kept (an older ledger)'] : keyDifferences(plan, o.plan)
      if (differences.length === 0) for (const [file, summary] of fileSummaries(lines, runId)) files[file] ??= summary
      else if (otherPlan === null && fileSummaries(lines, runId).size > 0)
        otherPlan = { runId, differences: differences.slice(0, 3) }
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
  return { files, kept, otherPlan: Object.keys(files).length > 0 ? null : otherPlan }
}

/** ms a file should take now by what an earlier invocation took, less the runs this one gets back; null: unknown. */
export function fileForecastMs(earlier: EarlierProgress | null, file: string): number | null {
  const summary = earlier?.files[file]
  if (!summary) return null
  return Math.max(0, summary.spanMs - (earlier?.kept[file]?.wallMs ?? 0))
}

/**
 * The saved baselines: one JSON file per machine and bench, `<dir>/<machine>/<bench>.json`, holding the runs of that
 * bench on that machine that a verdict compares against (each run's per-pair costs, not just a median: the verdict
 * needs this machine's spread). One file per bench, so that bench files running in parallel never write the same
 * file; each write is atomic (src/platform/atomic-write.ts), so a killed run leaves the old baseline or the new one.
 *
 * Where: `.bench-baselines/` in the checkout (ignored by git), or VIRNUCPRO_BENCH_BASELINE_DIR. In the checkout, as
 * Criterion keeps its baselines under `target/criterion`: a baseline describes the code this checkout ran on this
 * machine, a fresh clone has none (so it passes and saves one), `git clean -fdx` forgets it, and a CI runner that
 * keeps one between jobs points the variable at a lasting place or caches the directory by machine.
 */
import { readFile, stat } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../../../src/platform/atomic-write.ts'
import { makeDirs } from '../../../src/platform/make-dirs.ts'
import { THIS_CHECKOUT } from '../against/checkout.ts'
import { describeMachine, type MachineKey, machineDirName, sameMachine } from './machine.ts'

export const BASELINE_DIR_ENV = 'VIRNUCPRO_BENCH_BASELINE_DIR'
export const BASELINE_FORMAT = 1
/** Far above any bench's runs (the largest, 20,000 pairs x 5 runs, is about 4 MB); a larger file is not one of ours. */
const MAX_FILE_BYTES = 64 * 2 ** 20

const cost = z.number().positive().finite()
const runSchema = z
  .object({
    /** When the run ended (ISO 8601). */
    savedAt: z.string().min(1),
    /** The checkout's commit when the run was measured (`+dirty` with uncommitted changes); null outside git. */
    revision: z.string().nullable(),
    /** The 1-minute load average when the bench ended: for reading why a run stands out. */
    loadAverage: z.number().nonnegative().finite(),
    judgeOn: z.enum(['cpu', 'wall']),
    /** The judged cost of the subject and of its calibration, one entry per kept pair, ms. */
    subjectCosts: z.array(cost).min(1),
    calibrationCosts: z.array(cost).min(1),
  })
  .strict()
  .refine((run) => run.subjectCosts.length === run.calibrationCosts.length, {
    message: 'subjectCosts and calibrationCosts must have one entry per pair',
  })
const fileSchema = z
  .object({
    format: z.literal(BASELINE_FORMAT),
    machine: z.object({ cpuModel: z.string(), cores: z.number().int().positive(), node: z.string() }).strict(),
    bench: z.string().min(1),
    runs: z.array(runSchema).min(1),
  })
  .strict()

export type BaselineRun = z.infer<typeof runSchema>
export type Baseline = z.infer<typeof fileSchema>

/** A baseline file that exists but cannot be used; the message names the file, what is wrong and what to do. */
export class BaselineFileError extends Error {
  override name = 'BaselineFileError'
  readonly path: string
  constructor(path: string, problem: string, options?: ErrorOptions) {
    super(
      `bench baseline ${path}: ${problem}. Remove it, or start a new baseline with VIRNUCPRO_BENCH_SAVE_BASELINE=1 (npm run bench -- --save-baseline)`,
      options,
    )
    this.path = path
  }
}

/** The baselines directory: VIRNUCPRO_BENCH_BASELINE_DIR when set, else `.bench-baselines/` in this checkout. */
export function baselineRoot(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env[BASELINE_DIR_ENV]?.trim()
  return dir ? resolve(dir) : join(THIS_CHECKOUT, '.bench-baselines')
}

/** A bench's name as a file name: `bootstrap median CI, n=100` -> `bootstrap-median-ci-n-100`. */
export function benchFileName(bench: string): string {
  const slug = bench
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  if (!slug) throw new RangeError(`bench name '${bench}' has no letter or digit to name its baseline file by`)
  return `${slug}.json`
}

/** `<root>/<machine>/<bench>.json` */
export function baselinePath(root: string, machine: MachineKey, bench: string): string {
  return join(root, machineDirName(machine), benchFileName(bench))
}

/**
 * The baseline at `path`, or null when there is none.
 * @throws BaselineFileError when the file cannot be read, is not a regular file of a sane size, is not JSON, does not
 *   match the format, or was saved for another machine or bench
 */
export async function loadBaseline(path: string, machine: MachineKey, bench: string): Promise<Baseline | null> {
  const text = await readBaselineText(path)
  if (text === null) return null
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new BaselineFileError(path, `not JSON (${(error as Error).message})`, { cause: error })
  }
  const format = (json as { format?: unknown } | null)?.format
  if (typeof format === 'number' && format > BASELINE_FORMAT)
    throw new BaselineFileError(
      path,
      `format ${format} was written by a newer virnucpro-bench (this one reads ${BASELINE_FORMAT})`,
    )
  const parsed = fileSchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new BaselineFileError(
      path,
      `not a bench baseline: ${issue.path.join('.') || '(top level)'}: ${issue.message}`,
    )
  }
  const baseline = parsed.data
  if (!sameMachine(baseline.machine, machine))
    throw new BaselineFileError(
      path,
      `saved for another machine (${describeMachine(baseline.machine)}), not this one (${describeMachine(machine)})`,
    )
  if (baseline.bench !== bench) throw new BaselineFileError(path, `saved for bench '${baseline.bench}', not '${bench}'`)
  return baseline
}

async function readBaselineText(path: string): Promise<string | null> {
  try {
    const info = await stat(path)
    // Never opened unless a regular file: a FIFO would hang the bench, /dev/zero would fill its memory.
    if (!info.isFile()) throw new BaselineFileError(path, 'not a regular file')
    if (info.size > MAX_FILE_BYTES)
      throw new BaselineFileError(path, `${info.size} bytes, more than any baseline (${MAX_FILE_BYTES})`)
    return await readFile(path, 'utf8')
  } catch (error) {
    if (error instanceof BaselineFileError) throw error
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw new BaselineFileError(path, `cannot be read (${(error as Error).message})`, { cause: error })
  }
}

/**
 * Writes `baseline` to `path` whole or not at all, making its directories.
 * @throws Error naming `path` when it cannot be written
 */
export async function saveBaseline(path: string, baseline: Baseline): Promise<void> {
  const checked = fileSchema.parse(baseline)
  try {
    await makeDirs(dirname(path))
  } catch (error) {
    throw new Error(`could not make the baseline directory ${dirname(path)}: ${(error as Error).message}`, {
      cause: error,
    })
  }
  await writeFileAtomic(path, `${JSON.stringify(checked)}\n`)
}

import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import type { RunSize } from '../../src/config/forecast-prior.ts'
import { readSetting } from '../../src/config/variables.ts'
import { resultsRoot, workDirOf } from '../../src/engine/context.ts'
import { chooseRun } from '../../src/engine/continuation.ts'
import { installGracefulStop } from '../../src/engine/graceful-stop.ts'
import { openProgress, type PriorForecast, type ProgressContext } from '../../src/engine/invocation-progress/index.ts'
import { environmentKey } from '../../src/engine/run-keys.ts'
import { campaignTask } from '../../src/engine/settings.ts'
import { FIXTURES_CACHE_DIR } from '../../src/input/dataset-cache.ts'
import { identifyInput } from '../../src/input/identity.ts'
import { DEFAULT_WORK_CHUNK_LENGTH } from '../../src/input/sample.ts'
import { REPO_ROOT, selectProfile } from '../../src/pipeline/profiles.ts'
import { fsErrorCode, fsProblem } from '../../src/platform/fs-problem.ts'
import { firstMissingLevel, makeDirs, removeMadeDirs } from '../../src/platform/make-dirs.ts'
import { reportsDir } from '../../src/report/run-dir.ts'
import { unfinishedMeasurements } from '../../src/results/partial-records.ts'
import { collectProvenance } from '../../src/results/provenance.ts'
import { makeRunId } from '../../src/results/run-id.ts'
import type { RunKey } from '../../src/results/run-key.ts'
import { type RunState, STATE_FILE, writeRunState, writeRunStateSync } from '../../src/results/run-state.ts'
import { runDirectory } from '../../src/results/store.ts'
import {
  acquireWriter,
  checkWriter,
  newWriterToken,
  releaseWriter,
  startHeartbeat,
  WRITER_FILE,
  WriterBusyError,
  WriterLostError,
} from '../../src/results/writer-lock.ts'
import { failProject } from './fail-project.ts'
import type { GpuAvailability } from './gpu-availability.ts'
import { priorForecast } from './prior-forecast.ts'

declare module 'vitest' {
  interface ProvidedContext {
    runId: string
    resultsRoot: string
    /** The invocation's claim on the run's work directory (its writer lock), or null when nothing will be measured. */
    writer: { token: string; pid: number } | null
    /** The invocation's progress ledger and earlier progress (reporters/run-lines.ts), or null when nothing is measured. */
    progress: ProgressContext | null
    /** When the invocation started (epoch ms): its job limit counts from here (run-context.ts jobDeadlineMs). */
    invocationStartMs: number
  }
}

/**
 * The run key's shared part as the workers will compute it (src/engine/journal-options.ts), for choosing the run, and
 * the user's sample's size (records and mean length: what the first forecast prices, prior-forecast.ts).
 */
async function invocationKey(env: NodeJS.ProcessEnv): Promise<{ key: RunKey; user: RunSize | null }> {
  const profile = selectProfile(undefined, env)
  const userPath = env.VIRNUCPRO_BENCH_INPUT?.trim()
  // Read and validated by gpu-global-setup.ts already: this is its cached identity.
  const user = userPath
    ? await identifyInput(userPath, {
        source: 'user',
        chunkLength: DEFAULT_WORK_CHUNK_LENGTH,
        cacheDir: FIXTURES_CACHE_DIR,
      })
    : null
  const provenance = await collectProvenance({
    runId: '-',
    profile: profile.name,
    targetDir: profile.name === 'virnucpro' ? (env.VIRNUCPRO_DIR ?? null) : null,
    input: user ? { source: user, used: [] } : null,
  })
  const size = user && user.records > 0 ? { records: user.records, meanLengthBp: user.bases / user.records } : null
  return { key: await environmentKey(provenance), user: size }
}

/** The first forecast by each file's plan and the host's cost prior; worth less than the run: none where it fails. */
function priorOf(env: NodeJS.ProcessEnv, gpuNames: readonly string[], user: RunSize | null): PriorForecast | null {
  try {
    return priorForecast({ env, gpuNames, user })
  } catch (error) {
    console.error(`virnucpro-bench: no forecast from the cost prior: ${(error as Error).message}`)
    return null
  }
}

/**
 * The invocation's progress (src/engine/invocation-progress/): a line after every run and a forecast at the start.
 * Worth less than the run: where its ledger cannot be made, one line says so and the runs go on without it.
 */
async function progressOf(o: Omit<Parameters<typeof openProgress>[0], 'task'>): Promise<ProgressContext | null> {
  try {
    return await openProgress({ ...o, task: campaignTask(o.env) })
  } catch (error) {
    console.error(`virnucpro-bench: no progress lines this time: ${fsProblem(error)}`)
    return null
  }
}

/** The run could not be taken (another writer holds it, its place refuses a write): one line, what and where. */
class RunClaimError extends Error {}

/** `cannot <what>: <the fs problem>`, and what to do; null for an error that is no file system's (a bug: its stack). */
function placeRefused(what: string, error: unknown): RunClaimError | null {
  const code = fsErrorCode(error)
  if (code === null) return null
  const todo =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? 'free space there, or set VIRNUCPRO_BENCH_RESULTS_DIR to another disk'
      : 'set VIRNUCPRO_BENCH_RESULTS_DIR to a place this user can write'
  return new RunClaimError(`cannot ${what}: ${fsProblem(error)}; nothing was run: ${todo}`)
}

/**
 * Makes the run's work directory, takes its writer lock and writes its state, or undoes what it did (the lock, the
 * directories it made; a state file there before is left as it was) and throws RunClaimError. The state is written
 * synchronously once the lock is held: see the caller.
 */
async function claimRun(workDir: string, token: string, state: RunState): Promise<void> {
  const made = await firstMissingLevel(workDir)
  const undo = async (refusal: RunClaimError | null, error: unknown): Promise<never> => {
    await removeMadeDirs(workDir, made)
    throw refusal ?? error
  }
  try {
    await makeDirs(workDir)
  } catch (error) {
    return undo(placeRefused(`make the work directory ${workDir}`, error), error)
  }
  try {
    await acquireWriter(workDir, { token })
  } catch (error) {
    const busy = error instanceof WriterBusyError ? new RunClaimError(error.message) : null
    return undo(busy ?? placeRefused(`take the writer lock ${join(workDir, WRITER_FILE)}`, error), error)
  }
  try {
    writeRunStateSync(workDir, state)
  } catch (error) {
    releaseWriter(workDir, token)
    return undo(placeRefused(`write the run state ${join(workDir, STATE_FILE)}`, error), error)
  }
}

/**
 * One run per vitest invocation, shared by every worker and file (`inject('runId')`), so all records of one
 * invocation land in `results/<runId>/` (root: VIRNUCPRO_BENCH_RESULTS_DIR, default `results/`). The run is a new one,
 * the one VIRNUCPRO_BENCH_RUN_ID pins (e.g. to add a second GPU machine's records to the same run; gpu-global-setup.ts,
 * which runs first, has refused a value that is no single directory name), or the newest run when it was interrupted
 * under the same key: the same command run again continues it (src/engine/continuation.ts). Where the project will
 * measure (a GPU, or the fake NVML of the CPU tests), this invocation becomes the run's only writer (its lock,
 * heartbeat and state, src/results/), and a SIGTERM or SIGINT stops it gracefully (src/engine/graceful-stop.ts). A run
 * it cannot take (a live writer on it, a read-only or full disk) fails the project in one line, leaving nothing behind.
 */
export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  const env = process.env
  project.provide('invocationStartMs', Date.now())
  const root = resultsRoot(env)
  project.provide('resultsRoot', root)
  const availability = (project.getProvidedContext() as { gpuAvailability?: GpuAvailability }).gpuAvailability
  if (!availability?.ok) {
    // Every test will be skipped: nothing is measured, so nothing is continued or locked.
    project.provide('runId', readSetting(env, 'VIRNUCPRO_BENCH_RUN_ID') ?? makeRunId())
    project.provide('writer', null)
    project.provide('progress', null)
    return undefined
  }
  const { key, user } = await invocationKey(env)
  const choice = await chooseRun({ root, env, key })
  for (const line of choice.lines) console.error(`virnucpro-bench: ${line}`)
  const resultsDir = runDirectory(root, choice.runId)
  const workDir = workDirOf(resultsDir, campaignTask(env))
  const token = newWriterToken()
  const now = new Date().toISOString()
  const state: RunState = {
    format: 1,
    state: 'running',
    key,
    startedAt: now,
    updatedAt: now,
    command: process.argv.slice(1),
  }
  // From the lock to the handler nothing yields to the event loop (claimRun writes the state synchronously, and its
  // return resumes here as a microtask): a signal in between would leave a held lock and a `running` state behind
  // vitest's own handler, which exits 143 without a word of what was kept.
  try {
    await claimRun(workDir, token, state)
  } catch (error) {
    if (error instanceof RunClaimError) failProject(project, error.message)
    throw error
  }
  const uninstall = installGracefulStop({
    runId: choice.runId,
    resultsDir,
    workDir,
    token,
    state,
    reportCommand: { file: process.execPath, args: [join(REPO_ROOT, 'src', 'cli.ts')] },
    reportsDir: reportsDir(undefined, env),
  })
  const stopBeat = startHeartbeat(workDir, token)
  project.provide('runId', choice.runId)
  project.provide('writer', { token, pid: process.pid })
  project.provide(
    'progress',
    await progressOf({
      root,
      workDir,
      key,
      env,
      runId: choice.runId,
      continued: choice.continued,
      args: process.argv.slice(2),
      prior: priorOf(env, availability.gpuNames, user),
    }),
  )
  return async () => {
    uninstall()
    stopBeat()
    // A measurement without its record (a test timed out, a worker crashed) is as unfinished as one stopped by a
    // signal: the same command run again continues it.
    // Lost to another invocation (suspended past the lock's lease): its state is that one's to write, not ours. Said
    // already by the write that was refused and by the reporter, before vitest's closing line, which stays the last.
    try {
      checkWriter(workDir, token)
    } catch (error) {
      if (error instanceof WriterLostError) return
      throw error
    }
    const unfinished = await unfinishedMeasurements(resultsDir).catch(() => [])
    const ended = unfinished.length > 0 ? 'interrupted' : 'finished'
    await writeRunState(workDir, { ...state, state: ended, updatedAt: new Date().toISOString() })
    releaseWriter(workDir, token)
  }
}

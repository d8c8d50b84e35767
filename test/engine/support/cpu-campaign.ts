// The stage-throughput suite run as a user runs it (`vitest run --project gpu`, a real process group): the reference
// pipeline on the CPU at its smallest, one fake GPU for the driver check and the monitor. For the tests that cut a
// campaign (a signal, a suspension) and run the same command again into the same results directory.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa, type ResultPromise } from 'execa'
import { readAllStats } from '../../../src/pipeline/proc.ts'
import { createFakeNvml } from '../../support/fake-nvml.ts'
import { liveFilesEndingWith } from '../../support/live-tree.ts'
import { referencePipelineOnCpu } from '../../support/reference-pipeline.ts'
import { atFileEnd } from '../../support/temp-dir.ts'

const GIB = 2 ** 30

export const CAMPAIGN_COMMAND = [
  'node_modules/vitest/vitest.mjs',
  'run',
  '--project',
  'gpu',
  'benchmarks/stage-throughput.gpu.test.ts',
]

/** Whether the reference pipeline runs here, and the environment of a campaign into `work` (null when it cannot). */
export async function cpuCampaigns(runs: number) {
  const pipeline = await referencePipelineOnCpu()
  const fake =
    pipeline.state === 'ready'
      ? createFakeNvml({
          devices: [{ name: 'NVIDIA H100 (fake)', memTotalBytes: 80 * GIB, memUsedBytes: 2 * GIB, utilGpuPct: 90 }],
        })
      : null
  if (fake) atFileEnd(() => fake.remove())
  const env = (work: string): Record<string, string> => ({
    ...fake!.env,
    VIRNUCPRO_BENCH_DEVICE: 'cpu',
    VIRNUCPRO_BENCH_TARGET: 'reference',
    VIRNUCPRO_BENCH_MODEL_SCALE: 'tiny',
    VIRNUCPRO_BENCH_PRESET: 'TINY',
    VIRNUCPRO_BENCH_RECORDS: '10',
    VIRNUCPRO_BENCH_WARMUP: '1',
    VIRNUCPRO_BENCH_RUNS: String(runs),
    VIRNUCPRO_BENCH_MONITOR_INTERVAL_MS: '50',
    VIRNUCPRO_BENCH_RESULTS_DIR: join(work, 'results'),
    VIRNUCPRO_BENCH_REPORTS_DIR: join(work, 'reports'),
    VITEST_SUMMARY_FILE: '',
    NO_COLOR: '1',
  })
  return { pipeline, env }
}

/**
 * The campaign as a detached process group (so a signal reaches vitest, its workers and the targets at once); `file`:
 * another gpu-project file than the stage-throughput suite's.
 */
export function startCampaign(env: Record<string, string>, file?: string): ResultPromise<{ reject: false; all: true }> {
  const command = file ? [...CAMPAIGN_COMMAND.slice(0, -1), file] : CAMPAIGN_COMMAND
  return execa('node', command, { reject: false, env, detached: true, all: true })
}

/** Finished runs (`run.json`, warm-ups included) under the results directory so far. */
export function keptSoFar(work: string): number {
  // The pipeline prunes its outputs while the walk goes on: a tolerant walk (a recursive readdir threw ENOENT in CI).
  return liveFilesEndingWith(join(work, 'results'), '/run.json').length
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Whether /proc/<pid>/<file> (its command line, its environment) names `work`; a process gone names nothing. */
function names(pid: number, file: 'cmdline' | 'environ', work: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'latin1').includes(work)
  } catch {
    return false
  }
}

/** PIDs of the processes whose command line names `work` (the targets a campaign into it started). */
export function targetsOf(work: string): number[] {
  return readAllStats()
    .filter((s) => names(s.pid, 'cmdline', work))
    .map((s) => s.pid)
}

/**
 * PIDs of every live process of a campaign into `work`: those whose command line or environment names it (the targets,
 * and the workers they spawn, which inherit the campaign's VIRNUCPRO_BENCH_RESULTS_DIR but not its arguments).
 */
export function processesOf(work: string): number[] {
  return readAllStats()
    .filter((s) => s.state !== 'Z' && (names(s.pid, 'cmdline', work) || names(s.pid, 'environ', work)))
    .map((s) => s.pid)
}

/** Up to `withinMs` for `find` to find no process, looking every `stepMs`; those it finds still. */
async function goneWithin(find: () => number[], withinMs: number, stepMs: number): Promise<number[]> {
  for (let waited = 0; waited < withinMs && find().length > 0; waited += stepMs) await sleep(stepMs)
  return find()
}

/** Up to `withinMs` for every process of a campaign into `work` to go (processesOf); those still there. */
export const processesLeft = (work: string, withinMs = 10_000) => goneWithin(() => processesOf(work), withinMs, 100)

/** Up to `withinMs` for the targets of a campaign into `work` to go; those still there. */
export const targetsLeft = (work: string, withinMs = 10_000) => goneWithin(() => targetsOf(work), withinMs, 200)

/**
 * A campaign started and waited on until it has kept `runs` runs (warm-ups counted): the moment a test cuts it (a
 * signal, a suspension). `ended` says whether it ended before that.
 */
export async function startedUntilKept(env: Record<string, string>, work: string, runs: number, file?: string) {
  const child = startCampaign(env, file)
  let ended = false
  void child.finally(() => {
    ended = true
  })
  while (keptSoFar(work) < runs && !ended) await sleep(100)
  return { child, ended: () => ended }
}

/**
 * What goes into a run's key (src/results/run-key.ts), stated once; docs/reference.md (Continuing) repeats it:
 * - `suite`: the version of the code that measures a run: a hash of the runner, the log parser, the monitor, the NVML
 *   binding and the per-run observation (MEASURING_CODE). A change to analyses, reports or docs keeps kept runs; a
 *   change to how a run is measured does not.
 * - `target`: the profile and its version: the pipeline checkout's git commit (`+dirty` with local changes), else a
 *   hash of its Python sources; for the bundled reference pipeline, a hash of reference-pipeline/.
 * - `gpus`, `driver`: NVML's GPU names and UUIDs, and the driver version ('no NVML' where there is none).
 * - `input`: the user's sample's sha256 (null for generated presets, whose bytes the run's own input hash covers).
 * - per run, `arm`: the configuration (GPUs, device, options such as the model scale, environment), the sha256 of the
 *   FASTA the run read (each size's subset), whether it was monitored and at which interval.
 * Left out on purpose: thresholds (they only judge), the run count (a continuation may raise it), labels, the time.
 * A capacity answer adds the answering code (ANSWERING_CODE) to the shared part (capacity/answered.ts answerEnvironment).
 */
import { join } from 'node:path'
import { REPO_ROOT } from '../pipeline/profiles.ts'
import { sha256OfFile, sha256OfTree } from '../platform/file-hash.ts'
import type { RunKey } from '../results/run-key.ts'
import type { Provenance } from '../results/schema/index.ts'
import { type Configuration, configRecord } from './configuration.ts'

/** The code that decides what a run measures; its hash is the suite's version in a run key. */
export const MEASURING_CODE = [
  'src/pipeline',
  'src/monitor',
  'src/nvml',
  'native/nvml',
  'src/engine/observe-run.ts',
  'src/engine/monitor-series.ts',
  'src/engine/run-progress.ts',
  'src/engine/prune-outputs.ts',
]

const SOURCE = /\.(?:ts|cc|h|py|ya?ml|json|cfg|toml)$/

/**
 * The code that turns runs into an answer: the analyses and designs (src) and the files that ask (benchmarks). Not in
 * a run's key (a kept run stays good when only its analysis changes); in a capacity answer's (capacity/answered.ts):
 * an answer another version of this code worked out is worked out again, from the runs the journal keeps.
 */
export const ANSWERING_CODE = ['src', 'benchmarks']

const versions = new Map<string, Promise<string>>()

/** A hash (12 hex digits) of the sources under `paths`, computed once per process. */
function codeVersion(paths: readonly string[]): Promise<string> {
  const name = paths.join('\u0000')
  let known = versions.get(name)
  if (!known) {
    known = sha256OfTree(REPO_ROOT, paths, (file) => SOURCE.test(file)).then((h) => h.slice(0, 12))
    versions.set(name, known)
  }
  return known
}

/** The measuring code's hash (12 hex digits), computed once per process. */
export const measuringCodeVersion = () => codeVersion(MEASURING_CODE)

/** The answering code's hash (12 hex digits), computed once per process. */
export const answeringCodeVersion = () => codeVersion(ANSWERING_CODE)

/** The target's version: its checkout's commit where it is one, else a hash of its sources. */
export async function targetVersion(provenance: Provenance): Promise<string> {
  const { git, dir, profile } = provenance.target
  if (git) return `${git.commit}${git.dirty ? '+dirty' : ''}`
  const root = dir ?? (profile === 'reference' ? join(REPO_ROOT, 'reference-pipeline') : null)
  if (!root) return 'unknown'
  return `sources ${(await sha256OfTree(root, ['.'], (name) => SOURCE.test(name))).slice(0, 12)}`
}

/** The part of every run's key that one invocation shares: code, target, GPUs, driver, the user's input. */
export async function environmentKey(provenance: Provenance): Promise<RunKey> {
  const nvml = provenance.nvml
  return {
    suite: await measuringCodeVersion(),
    target: { profile: provenance.target.profile, version: await targetVersion(provenance) },
    gpus: nvml.available ? nvml.gpus.map((g) => `${g.name} ${g.uuid}`) : [],
    driver: nvml.available ? nvml.driverVersion : 'no NVML',
    input: provenance.input?.source.source === 'user' ? provenance.input.source.sha256 : null,
  }
}

/** One run's key: the invocation's part and the arm's (configuration, input bytes, monitor). */
export async function runKey(
  environment: RunKey,
  arm: { config: Configuration; input: string; monitorIntervalMs: number | null },
): Promise<RunKey> {
  const { setup: _setup, ...config } = configRecord(arm.config)
  return {
    ...environment,
    arm: { config, inputSha256: await sha256OfFile(arm.input), monitorIntervalMs: arm.monitorIntervalMs },
  }
}

import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type TargetProfile, UPSTREAM_EXIT_CODES } from '../../../src/pipeline/profiles.ts'

/**
 * Test support: a profile whose target replays what the unmodified VirNucPro wrote (test/fixtures/virnucpro/, through
 * test/pipeline/fakes/replay-log.ts): its stdout and stderr bytes as a real process writes them, with the original
 * interleaving and timing compressed `speedup` times.
 */
export const REPLAY_TARGET = fileURLToPath(new URL('../fakes/replay-log.ts', import.meta.url))
export const VIRNUCPRO_FIXTURES = fileURLToPath(new URL('../../fixtures/virnucpro/', import.meta.url))

/** The fixture runs: `v1-1gpu` (1 GPU, v1.0 path) and `v2-2gpu` (2 GPUs, v2.0 workers). */
export type FixtureRun = 'v1-1gpu' | 'v2-2gpu'

export function replayProfile(): TargetProfile {
  return {
    name: 'replay',
    gpuSelection: 'gpus-flag',
    exitCodes: UPSTREAM_EXIT_CODES,
    launcher: async () => ({ state: 'ready', launcher: { file: process.execPath, args: [REPLAY_TARGET], env: {} } }),
    preflight: async () => ({ state: 'ready', python: process.execPath, detail: 'a replayed log' }),
  }
}

/** The environment that makes the replay target write `run`'s files, `speedup` times faster than they were written. */
export const replayEnv = (run: FixtureRun, speedup: number): Record<string, string> => ({
  REPLAY_STDOUT: join(VIRNUCPRO_FIXTURES, `${run}.stdout`),
  REPLAY_STDERR: join(VIRNUCPRO_FIXTURES, `${run}.stderr`),
  REPLAY_SPEEDUP: String(speedup),
})

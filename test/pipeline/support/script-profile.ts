import { fileURLToPath } from 'node:url'
import { type TargetProfile, UPSTREAM_EXIT_CODES } from '../../../src/pipeline/profiles.ts'

/**
 * Test support: a profile whose target is a bash script, for cases about the target's output (odd bytes, long lines,
 * processes left behind) that the fake VirNucPro does not write. The script gets the usual `predict INPUT -o OUT
 * --force` arguments; `$NOOP "$@"` writes the two output files (test/pipeline/fakes/noop_target.sh), so a run can complete.
 */
export const NOOP_TARGET = fileURLToPath(new URL('../fakes/noop_target.sh', import.meta.url))

export function scriptProfile(script: string): TargetProfile {
  return {
    name: 'script',
    gpuSelection: 'gpus-flag',
    exitCodes: UPSTREAM_EXIT_CODES,
    launcher: async () => ({
      state: 'ready',
      launcher: { file: '/bin/bash', args: ['-c', script, 'script'], env: { NOOP: NOOP_TARGET } },
    }),
    preflight: async () => ({ state: 'ready', python: '/bin/bash', detail: 'a bash script' }),
  }
}

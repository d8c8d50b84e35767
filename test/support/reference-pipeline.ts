// The reference pipeline on the CPU needs Python 3 with PyTorch, an optional tool (test/support/optional-tools.ts):
// the tests that run it skip where it cannot run, and fail where VIRNUCPRO_BENCH_REQUIRE_TOOLS names torch (.ci/run
// installs it and does).
import type { Preflight } from '../../src/pipeline/preflight.ts'
import { referenceProfile } from '../../src/pipeline/profiles.ts'
import { toolProblem } from './optional-tools.ts'

/**
 * The reference profile's CPU preflight, for a file's `describe.skipIf(ready.state !== 'ready')`.
 * @throws Error where torch is required and the pipeline cannot run: the file fails, naming why.
 */
export async function referencePipelineOnCpu(): Promise<Preflight> {
  const ready = await referenceProfile.preflight(process.env, 0)
  toolProblem('torch', ready.state === 'ready' ? null : ready.reason)
  return ready
}

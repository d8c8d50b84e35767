import type { TestProject } from 'vitest/node'
import { readSetting } from '../../src/config/variables.ts'
import { makeRunId } from '../../src/results/run-id.ts'
import { resultsRoot } from '../../src/suites/context.ts'

declare module 'vitest' {
  interface ProvidedContext {
    runId: string
    resultsRoot: string
  }
}

/**
 * One run ID per vitest invocation, shared by every worker and file (`inject('runId')`), so all records of one
 * invocation land in `results/<runId>/` (root: VIRNUCPRO_BENCH_RESULTS_DIR, default `results/`). VIRNUCPRO_BENCH_RUN_ID
 * pins it (e.g. to add a second GPU machine's records to the same run); gpu-global-setup.ts, which runs first, has
 * refused a value that is no single directory name (`../x` would have put the run outside the results root).
 */
export default function setup(project: TestProject): void {
  const runId = readSetting(process.env, 'VIRNUCPRO_BENCH_RUN_ID') ?? makeRunId()
  project.provide('runId', runId)
  project.provide('resultsRoot', resultsRoot())
}

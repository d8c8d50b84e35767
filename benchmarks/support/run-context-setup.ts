import type { TestProject } from 'vitest/node'
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
 * pins it (e.g. to add a second GPU machine's records to the same run).
 */
export default function setup(project: TestProject): void {
  const runId = process.env.VIRNUCPRO_BENCH_RUN_ID?.trim() || makeRunId()
  project.provide('runId', runId)
  project.provide('resultsRoot', resultsRoot())
}

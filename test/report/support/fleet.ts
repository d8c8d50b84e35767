// The fleet fixtures (test/fixtures/fleet/README.md): real CPU runs of the reference pipeline on one machine, host
// names assigned, GPU readings scripted; node-04 and shard 3 ran with an injected slow ESM-2 stage.
import { fileURLToPath } from 'node:url'
import { buildReport, type Report } from '../../../src/report/analyses/build.ts'
import type { ReportInput } from '../../../src/report/input.ts'
import { loadReportInput } from '../../../src/report/load.ts'
import type { ResultRecord } from '../../../src/results/schema/index.ts'

export const FLEET_DIR = fileURLToPath(new URL('../../fixtures/fleet/', import.meta.url))
export const STAGE_RUN_ID = '2026-03-05T08-00-00Z-f1ee'
export const SHARD_RUN_ID = '2026-03-05T09-00-00Z-5a4d'
/** Results root with the stage run's first four hosts and the shard run. */
export const MAIN_ROOT = `${FLEET_DIR}results`
/** Results root with the stage run's other two hosts (node-04, gpu-a-02). */
export const OTHER_ROOT = `${FLEET_DIR}other-root`
export const SHARD_DIR = `${MAIN_ROOT}/${SHARD_RUN_ID}`

const NOW = new Date('2026-03-05T10:00:00Z')

/** Both roots merged, as `virnucpro-bench report results other-root` reads them. */
export function loadFleet(dirs: readonly string[] = [MAIN_ROOT, OTHER_ROOT]): Promise<ReportInput> {
  return loadReportInput({ resultsDir: dirs, now: NOW })
}

export async function fleetRecords(dirs?: readonly string[]): Promise<ResultRecord[]> {
  return (await loadFleet(dirs)).records
}

/** A report of these records alone (no sources, no series). */
export function reportOf(records: ResultRecord[]): Report {
  return buildReport({
    records,
    invalid: [],
    series: new Map(),
    seriesNotes: [],
    runId: 'fleet-test',
    resultsDir: null,
    generatedAt: NOW.toISOString(),
    outcome: { state: 'passed' },
    baseline: null,
    benchmarks: [],
  })
}

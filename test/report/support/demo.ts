// The committed demo run (test/fixtures/results/<id>), loaded once for analysis and renderer tests.
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ReportInput } from '../../../src/report/input.ts'
import { loadReportInput } from '../../../src/report/load.ts'

export const DEMO_RUN_ID = '2026-03-02T09-30-00Z-de30'
export const DEMO_DIR = join(fileURLToPath(new URL('../../fixtures/results', import.meta.url)), DEMO_RUN_ID)

export function loadDemo(): Promise<ReportInput> {
  return loadReportInput({ resultsDir: DEMO_DIR, now: new Date('2026-03-02T10:00:00Z') })
}

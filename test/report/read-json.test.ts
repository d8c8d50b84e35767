import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { buildReport, REPORT_SCHEMA_VERSION } from '../../src/report/analyses/build.ts'
import { parseReportJson, ReportJsonError, readReportJson } from '../../src/report/read-json.ts'
import { bottleneckJson, perf02Json, summaryJson } from '../../src/report/render/json.ts'
import { loadDemo } from './support/demo.ts'

const report = buildReport(await loadDemo())
const JSON_REPORTS = ['summary.json', 'bottleneck.json', 'perf02.json'] as const

async function refusal(read: () => Promise<unknown> | unknown): Promise<ReportJsonError> {
  try {
    await read()
  } catch (error) {
    if (error instanceof ReportJsonError) return error
    throw error
  }
  throw new Error('read, not refused')
}

describe('reading the JSON reports back', () => {
  test("today's three files carry today's version and read back", () => {
    const texts = {
      'summary.json': summaryJson(report),
      'bottleneck.json': bottleneckJson(report),
      'perf02.json': perf02Json(report),
    }
    for (const name of JSON_REPORTS) {
      expect(JSON.parse(texts[name]).schemaVersion).toBe(REPORT_SCHEMA_VERSION)
      expect(parseReportJson(name, texts[name])).toMatchObject({ schemaVersion: REPORT_SCHEMA_VERSION })
    }
  })

  test('every committed report under docs/results is either read or named with its older version and what to do', async () => {
    const seen: string[] = []
    for (const dir of readdirSync('docs/results'))
      for (const name of JSON_REPORTS) {
        const file = join('docs/results', dir, name)
        if (!readdirSync(join('docs/results', dir)).includes(name)) continue
        seen.push(file)
        const error = await refusal(() => readReportJson(file)).catch(() => null)
        if (error === null) continue
        expect(error.code, error.message).toBe('REPORT_JSON_OLDER')
        expect(error.message).toBe(
          `${file} is a report of schema version 1; this virnucpro-bench reads version ${REPORT_SCHEMA_VERSION}: rebuild it from the run's records with 'virnucpro-bench report RESULTS_DIR'`,
        )
      }
    expect(seen).toContain('docs/results/2026-11-22-h200/perf02.json')
  })

  test("the 2026-11-22 files, which fail today's schemas, are version 1 (their bulk files said none)", async () => {
    for (const name of JSON_REPORTS) {
      const error = await refusal(() => readReportJson(join('docs/results/2026-11-22-h200', name)))
      expect(error).toMatchObject({ code: 'REPORT_JSON_OLDER', version: 1 })
    }
  })

  test('a newer version, a version without its shape and a file that is not JSON are refused, each saying so', async () => {
    const newer = await refusal(() => parseReportJson('perf02.json', '{"schemaVersion": 99, "rows": []}'))
    expect(newer.message).toMatch(/schema version 99; this virnucpro-bench reads version \d+: read it with the newer/)
    const wrong = await refusal(() => parseReportJson('perf02.json', `{"schemaVersion": ${REPORT_SCHEMA_VERSION}}`))
    expect(wrong.message).toMatch(/says schema version \d+ but is not its shape \(rows: .*\): rebuild it/)
    const cut = await refusal(() => parseReportJson('summary.json', '{"schemaVersion": 2, "ru'))
    expect(cut).toMatchObject({ code: 'REPORT_JSON_INVALID', version: null })
  })
})

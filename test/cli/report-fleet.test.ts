// `virnucpro-bench report` over several directories: two results roots merged into one report with a fleet section; a
// truncated record in one of them named on stderr and in the reports, the rest merged.
import { cp, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { run } from '../../src/cli/report.ts'
import { REPORT_FILES } from '../../src/report/write.ts'
import { MAIN_ROOT, OTHER_ROOT, STAGE_RUN_ID } from '../report/support/fleet.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

let logged: string[]
let errors: string[]
beforeEach(() => {
  logged = []
  errors = []
  vi.spyOn(console, 'log').mockImplementation((text: string) => logged.push(text))
  vi.spyOn(console, 'error').mockImplementation((text: string) => errors.push(text))
})
afterEach(() => vi.restoreAllMocks())

describe('report RESULTS_DIR...', () => {
  test('two results roots: every report file, the fleet in summary.md and on the terminal, exit 0', async () => {
    const out = join(tempDirUntilFileEnd('report-fleet-'), 'r')
    expect(await run([MAIN_ROOT, OTHER_ROOT, '--out', out])).toBe(0)
    expect((await readdir(out)).sort()).toEqual([...REPORT_FILES].sort())
    const summary = await readFile(join(out, 'summary.md'), 'utf8')
    expect(summary).toContain('## Fleet: hosts, GPU models and sharded runs')
    const terminal = logged.join('\n')
    expect(terminal).toMatch(
      /^gpu-report: fleet: 11 host\(s\), 2 GPU model\(s\), 3 directory\(ies\), 1 sharded run\(s\)$/m,
    )
    expect(terminal).toMatch(/^gpu-report: fleet BAD NODE node-04 /m)
    expect(errors).toEqual([])
  }, 60_000)

  test('a truncated record in one directory is named on stderr and in summary.json; the rest is merged', async () => {
    const work = tempDirUntilFileEnd('report-fleet-')
    const other = join(work, 'other')
    await cp(OTHER_ROOT, other, { recursive: true })
    const broken = join(other, STAGE_RUN_ID, 'stage-cpu-tiny-node-05.json')
    await writeFile(broken, '{"schemaVersion": 1, "id": "stage-cpu-tiny-node-05", "kind": "sta')
    expect(await run([MAIN_ROOT, other, '--out', join(work, 'r')])).toBe(0)
    expect(errors).toEqual([
      expect.stringMatching(new RegExp(`^virnucpro-bench report: invalid record ${broken}: not valid JSON`)),
    ])
    const json = JSON.parse(await readFile(join(work, 'r', 'summary.json'), 'utf8'))
    expect(json.counts).toMatchObject({ records: 11, invalid: 1 })
    expect(json.fleet.sources.find((s: { dir: string }) => s.dir.startsWith(other))).toMatchObject({
      records: 2,
      invalid: 1,
    })
    expect(json.fleet.comparison.models.some((m: { badNodes: string[] }) => m.badNodes.includes('node-04'))).toBe(true)
  }, 60_000)

  test('every RESULTS_DIR must be a directory: one line naming the bad one', async () => {
    const missing = join(tempDirUntilFileEnd('report-fleet-'), 'nope')
    await expect(run([MAIN_ROOT, missing])).rejects.toThrow(`report: RESULTS_DIR '${missing}' is not a directory`)
  })
})

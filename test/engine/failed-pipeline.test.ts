// Issue #18's run, end to end on real processes: a pipeline that logs its first stage and then dies importing
// `_aligncore` from a Bio without it (a real python3 ImportError), measured by the scaling suite (1 vs 2 GPUs, warm-up
// first, monitor off), its record written and read back, and every report rendered from it. The reason must carry the
// ImportError line everywhere a person or a CI job reads it; the speedup, PERF-03 and placement are `error`, not a
// failure to scale; the reports explain the verdict states.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { DEFAULT_REPETITION_POLICY } from '../../src/measure/index.ts'
import type { TargetProfile } from '../../src/pipeline/profiles.ts'
import { buildReport, type Report } from '../../src/report/analyses/build.ts'
import { loadReportInput } from '../../src/report/load.ts'
import { escapeHtml, escapeMarkdown } from '../../src/report/render/escape.ts'
import { terminalSummary } from '../../src/report/render/terminal.ts'
import { renderReports } from '../../src/report/write.ts'
import type { ResultRecord } from '../../src/results/schema/index.ts'
import { runScalingSuite } from '../../src/suites/index.ts'
import { fakeProfile, PYTHON } from '../pipeline/support/fake-profile.ts'
import { cpuContext, tinyInput } from '../suites/support/cpu-suite.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

/** A target that logs stage 1 as VirNucPro does, then imports `_aligncore` from a Bio package that lacks it. */
function brokenBioProfile(): { profile: TargetProfile; importError: string } {
  const dir = tempDirUntilFileEnd('broken-bio-')
  mkdirSync(join(dir, 'Bio', 'Align'), { recursive: true })
  writeFileSync(join(dir, 'Bio', '__init__.py'), '')
  writeFileSync(join(dir, 'Bio', 'Align', '__init__.py'), '')
  const code = [
    'import logging, sys',
    "logging.basicConfig(stream=sys.stdout, format='%(asctime)s - %(name)s - %(levelname)s - %(message)s', level=logging.INFO)",
    "logging.getLogger('virnucpro.pipeline.prediction').info('=== Stage 1: Sequence Chunking ===')",
    'from Bio.Align import _aligncore',
  ].join('\n')
  const profile: TargetProfile = {
    ...fakeProfile(),
    name: 'broken-bio',
    launcher: async () => ({
      state: 'ready',
      launcher: { file: PYTHON, args: ['-c', code], env: { PYTHONPATH: dir } },
    }),
  }
  const init = join(dir, 'Bio', 'Align', '__init__.py')
  return { profile, importError: `ImportError: cannot import name '_aligncore' from 'Bio.Align' (${init})` }
}

let record: ResultRecord
let importError: string
let report: Report
let files: Map<string, string>

beforeAll(async () => {
  const broken = brokenBioProfile()
  importError = broken.importError
  const ctx = { ...(await cpuContext()), profile: broken.profile }
  const policy = { ...DEFAULT_REPETITION_POLICY, warmupRuns: 1, minRuns: 3, maxRuns: 3 }
  const m = { input: await tinyInput(3), monitor: null, policy, timeoutMs: 60_000 }
  const outcome = await runScalingSuite(ctx, m, { label: '1 GPU', gpus: [0] }, { label: '2 GPUs', gpus: [0, 1] }, 2)
  record = outcome.record
  // Read back from the results directory, as the reporter does.
  const input = await loadReportInput({ resultsDir: ctx.resultsDir })
  report = buildReport(input)
  files = await renderReports(report, input)
}, 60_000)

const verdictOf = (id: string) => record.verdicts.find((v) => v.id === id)

describe('a pipeline that does not start, through the scaling suite', () => {
  test('the record failed, and its reason names the failed run and its ImportError line', () => {
    expect(record.state).toBe('failed')
    expect(record.reason).toBe(`1 GPU warm-up 1 ended as failed: exit code 1: ${importError}`)
  })

  test('speedup and PERF-03 are error (nothing measured on a side), with the reason; never fail', () => {
    for (const id of ['scaling/2/total', 'perf03']) {
      expect(verdictOf(id)?.verdict, id).toBe('error')
      expect(verdictOf(id)?.detail).toBe(
        `completed measured runs: 1 GPU 0, 2 GPUs 0; 1 GPU warm-up 1 ended as failed: exit code 1: ${importError}`,
      )
    }
    expect(record.verdicts.map((v) => v.verdict)).not.toContain('fail')
  })

  test('placement reads what the failed runs asked for: error, not "no run asked for specific GPUs"', () => {
    const placement = verdictOf('placement')
    expect(placement?.verdict).toBe('error')
    expect(placement?.detail).toBe(
      `2 run(s) asked for GPUs (1 GPU warm-up 1: asked 0) and failed before any GPU work to judge: 1 GPU warm-up 1 ended as failed: exit code 1: ${importError}`,
    )
  })

  test('the terminal summary line carries the ImportError', () => {
    const lines = terminalSummary(report, 'reports', [...files.keys()])
    expect(lines[0]).toBe(
      `gpu-report: FAILED  scaling     scaling, 2 GPUs vs 1 GPU | 1 GPU warm-up 1 ended as failed: exit code 1: ${importError}`,
    )
  })

  test('summary.md, index.html and summary.json carry it too', () => {
    expect(files.get('summary.md')).toContain(escapeMarkdown(importError))
    expect(files.get('index.html')).toContain(escapeHtml(importError))
    const suites = JSON.parse(files.get('summary.json') as string).suites
    expect(suites[0]).toMatchObject({ verdict: 'failed', reason: record.reason, counts: { error: 3, fail: 0 } })
  })

  test('summary.md and index.html explain each verdict state, error included, from the one definition', () => {
    expect(files.get('summary.md')).toContain(
      '- **ERROR**: not measured: the runs the check needs failed \\(the pipeline did not start or crashed\\)',
    )
    expect(files.get('summary.md')).toContain('- **FAILED**: the record failed')
    expect(files.get('index.html')).toContain('<dt class="error">ERROR</dt><dd>not measured: the runs the check needs')
  })
})

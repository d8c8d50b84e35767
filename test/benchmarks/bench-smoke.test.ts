// Issue 45: every bench runs in CI. `vitest bench` as a person runs it, in the smoke pass (VIRNUCPRO_BENCH_SMOKE=1:
// reduced sizes, a few pairs, nothing judged, no baseline read or written; benchmarks/support/smoke.ts): every CPU
// bench file runs end to end and passes, every GPU bench file is imported and collected and, with no driver, skipped
// with the gpu project's reason. So a moved fixture (the runner bench's no-op target once was) or a renamed export
// fails here, not on a user. Whether a bench got slower stays for the machine that owns its baseline.
import { globSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { execa } from 'execa'
import { expect, test } from 'vitest'
import { SMOKE_ENV } from '../../benchmarks/support/smoke.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const REPO = join(import.meta.dirname, '..', '..')

interface JsonFile {
  name: string
  assertionResults: { status: string; title: string; failureMessages: string[] }[]
}

test('every *.bench.ts runs once in the smoke pass: CPU benches pass, GPU benches are collected and skip', {
  timeout: 300_000,
}, async () => {
  const work = tempDirUntilFileEnd('bench-smoke-')
  const json = join(work, 'bench.json')
  const result = await execa(
    process.execPath,
    [
      'node_modules/vitest/vitest.mjs',
      'bench',
      '--project',
      'unit (bench)',
      '--project',
      'gpu (bench)',
      '--reporter=json',
      `--outputFile=${json}`,
    ],
    {
      cwd: REPO,
      reject: false,
      all: true,
      env: {
        [SMOKE_ENV]: '1',
        // No GPU whatever the host has: this is the CPU smoke pass, the GPU benches are the GPU host's to run.
        VIRNUCPRO_BENCH_NVML_LIB: join(work, 'no-libnvidia-ml.so.1'),
        VIRNUCPRO_BENCH_BASELINE_DIR: join(work, 'baselines'),
        VIRNUCPRO_BENCH_REPORTS_DIR: join(work, 'reports'),
        VIRNUCPRO_BENCH_RESULTS_DIR: join(work, 'results'),
        VITEST_SUMMARY_FILE: '',
      },
    },
  )
  const output = stripVTControlCharacters(result.all ?? '')
  expect(result.exitCode, output).toBe(0)
  const files = (JSON.parse(readFileSync(json, 'utf8')) as { testResults: JsonFile[] }).testResults
  const ran = new Map(files.map((f) => [relative(REPO, f.name), f.assertionResults]))
  const benches = globSync('benchmarks/**/*.bench.ts', { cwd: REPO }).sort()
  expect(benches.length).toBeGreaterThan(10)
  for (const bench of benches) {
    const tests = ran.get(bench)
    expect(tests?.length, `${bench}: not run by the smoke pass`).toBeGreaterThan(0)
    const expected = bench.endsWith('.gpu.bench.ts') ? 'skipped' : 'passed'
    for (const t of tests!) expect(t.status, `${bench} > ${t.title}: ${t.failureMessages.join('\n')}`).toBe(expected)
  }
  // Nothing judged and nothing saved: the baseline belongs to a machine that runs the benches at full size.
  expect(globSync('**/*.json', { cwd: join(work, 'baselines') })).toEqual([])
})

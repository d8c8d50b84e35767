import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { execa } from 'execa'
import { expect, test } from 'vitest'

/** `vitest bench` as a person runs it, on the log parser's bench, its baselines and reports in `work`. */
function benchLogParser(work: string) {
  return execa(
    'npx',
    ['vitest', 'bench', '--project', 'unit (bench)', 'benchmarks/runner.bench.ts', '-t', 'log parser'],
    {
      reject: false,
      env: {
        VIRNUCPRO_BENCH_BASELINE_DIR: join(work, 'baselines'),
        VIRNUCPRO_BENCH_REPORTS_DIR: join(work, 'reports'),
        VIRNUCPRO_BENCH_RESULTS_DIR: join(work, 'results'),
        VITEST_SUMMARY_FILE: '',
      },
    },
  )
}

// One small bench whose measured loop calls across src/ modules millions of times (the log parser's). Under Vite's
// module runner every such call goes through an export getter and Vitest warns that the numbers carry that overhead;
// vitest.config.ts runs bench runs on native imports so they do not.
test('vitest bench measures without module export getters (no overhead warning)', { timeout: 120_000 }, async () => {
  const work = await mkdtemp(join(tmpdir(), 'bench-getters-'))
  try {
    const result = await benchLogParser(work)
    const output = stripVTControlCharacters(`${result.stdout}\n${result.stderr}`)
    expect(output).toMatch(/^log parser: [\d,]+ lines\/s/m)
    expect(output).not.toContain('accessed module export getters')
    expect(result.exitCode, output).toBe(0)
  } finally {
    await rm(work, { recursive: true, force: true })
  }
})

// Issue 32: on a machine it has not seen, `vitest bench` read FAILED on a limit set on another machine. Now the first
// run passes, printing its figures, and saves this machine's baseline; the next run is judged against it.
test('a machine without a baseline passes and saves one; the next run is judged against it', {
  timeout: 180_000,
}, async () => {
  const work = await mkdtemp(join(tmpdir(), 'bench-baseline-'))
  try {
    const first = await benchLogParser(work)
    const output = stripVTControlCharacters(`${first.stdout}\n${first.stderr}`)
    expect(first.exitCode, output).toBe(0)
    expect(output).toMatch(
      /^\[annotation\] .*log parser: cpu ratio [\d.]+ .*lines\/s \(issue 7: >= 100,000\).*; no baseline of this machine \(.+, Node v[\d.]+\) yet: passed, and saved this run as its baseline \(.+parse-100-000-upstream-log-lines\.json, 1 of 5 runs/m,
    )
    const second = await benchLogParser(work)
    const again = stripVTControlCharacters(`${second.stdout}\n${second.stderr}`)
    expect(again).toMatch(/^\[annotation\] .*log parser: .* against this machine's baseline of 1 run, both must pass/m)
  } finally {
    await rm(work, { recursive: true, force: true })
  }
})

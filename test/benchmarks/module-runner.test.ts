import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { execa } from 'execa'
import { expect, test } from 'vitest'

// `vitest bench` as a person runs it, on one small bench whose measured loop calls across src/ modules millions of
// times (the log parser's). Under Vite's module runner every such call goes through an export getter and Vitest warns
// that the numbers carry that overhead; vitest.config.ts runs bench runs on native imports so they do not.
test('vitest bench measures without module export getters (no overhead warning)', { timeout: 120_000 }, async () => {
  const work = await mkdtemp(join(tmpdir(), 'bench-getters-'))
  try {
    const result = await execa(
      'npx',
      ['vitest', 'bench', '--project', 'unit (bench)', 'benchmarks/runner.bench.ts', '-t', 'log parser'],
      {
        reject: false,
        env: {
          VIRNUCPRO_BENCH_REPORTS_DIR: join(work, 'reports'),
          VIRNUCPRO_BENCH_RESULTS_DIR: join(work, 'results'),
          VITEST_SUMMARY_FILE: '',
        },
      },
    )
    const output = stripVTControlCharacters(`${result.stdout}\n${result.stderr}`)
    expect(output).toMatch(/^log parser: [\d,]+ lines\/s/m)
    expect(output).not.toContain('accessed module export getters')
    // The bench's own verdict (its ratio against the limit) is not what this test is about: this file runs in the
    // integration project beside torch processes, where the parser's ratio has read 12.61 against its limit of 12 (a
    // quiet machine: 10.22). A failing exit is accepted only when that verdict is the one failure.
    const verdictOnly =
      /^\[annotation\] .*log parser[^:]*: cpu ratio [\d.]+ .*limit [\d.]+: fail/m.test(output) &&
      /Tests\s+1 failed \| 1 skipped \(2\)/.test(output)
    expect(result.exitCode === 0 || (result.exitCode === 1 && verdictOnly), output).toBe(true)
  } finally {
    await rm(work, { recursive: true, force: true })
  }
})

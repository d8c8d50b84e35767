// Tests that need an optional tool, in a real vitest run (test/reporters/fixtures/skips, where chromium and slurm are
// missing by construction): skipped with their reasons printed one line each, or failed where the tool is required.
import { execa } from 'execa'
import { expect, test } from 'vitest'
import { OPTIONAL_TOOLS } from '../support/optional-tools.ts'

const run = (required: string, ...args: string[]) =>
  execa('npx', ['vitest', 'run', '--root', 'test/reporters/fixtures/skips', ...args], {
    reject: false,
    env: { CI: 'true', NO_COLOR: '1', VIRNUCPRO_BENCH_REQUIRE_TOOLS: required },
  })

test('without VIRNUCPRO_BENCH_REQUIRE_TOOLS: each reason printed once with its count, then the closing line', async () => {
  const result = await run('')
  expect(result.exitCode, result.stderr).toBe(0)
  const lines = result.stdout.trimEnd().split('\n')
  expect(lines.slice(-4)).toEqual([
    `skipped 2 tests (1 file): needs chromium (${OPTIONAL_TOOLS.chromium.adds}): CHROMIUM is unset and no browser is on PATH; ${OPTIONAL_TOOLS.chromium.get}`,
    `skipped 1 test (1 file): needs slurm (${OPTIONAL_TOOLS.slurm.adds}): no Slurm cluster answers here (sinfo is not on PATH); ${OPTIONAL_TOOLS.slurm.get}`,
    'skipped 1 test (1 file) without a reason (test.skip, describe.skipIf)',
    'vitest: 1 passed, 0 failed, 4 skipped',
  ])
})

test('VIRNUCPRO_BENCH_REQUIRE_TOOLS=chromium: the tests that needed it fail, saying so; the others still skip', async () => {
  // The default reporter, which prints each failure's message (the fixture's own print only the reasons and counts).
  const result = await run('chromium', '--reporter=default')
  expect(result.exitCode).toBe(1)
  expect(result.stdout).toMatch(/Tests +2 failed \| 1 passed \| 2 skipped \(5\)/)
  // Both failures carry the same error, which vitest prints once.
  const failure = /^Error: chromium is required here .*$/m.exec(`${result.stdout}\n${result.stderr}`)?.[0]
  expect(failure).toContain(
    'chromium is required here (VIRNUCPRO_BENCH_REQUIRE_TOOLS=chromium) but CHROMIUM is unset and no browser is on PATH',
  )
})

import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { execa } from 'execa'
import { expect, test } from 'vitest'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'

const dir = tempDirUntilFileEnd('gpu-global-setup-')

// The gpu project with bad settings, as a real vitest process: refused in its global setup, before any test file, with
// the lines `virnucpro-bench doctor` prints for the same settings, and no stack trace.
test('bad settings fail the gpu project before any test, one line each, as doctor names them', {
  timeout: 120_000,
}, async () => {
  const thresholds = join(dir, 'thresholds.json')
  await writeFile(thresholds, '{"scalingBands": {"2": [2.0, 1.6]}}')
  const parts = join(dir, 'parts')
  await mkdir(parts)
  await writeFile(join(parts, 'a.fa'), '>x\nACGT\n')
  await writeFile(join(parts, 'b.fa'), '>x\nACGT\n')
  const env = {
    VIRNUCPRO_BENCH_NVML_LIB: '/nonexistent/libnvidia-ml.so.1',
    VIRNUCPRO_BENCH_THRESHOLDS: thresholds,
    VIRNUCPRO_BENCH_INPUT: parts,
    VIRNUCPRO_BENCH_MATRIX: 'nein',
    VITEST_SUMMARY_FILE: '',
  }
  const gpu = await execa('npx', ['vitest', 'run', '--project', 'gpu'], { reject: false, env })
  const doctor = await execa('node', ['src/cli.ts', 'doctor', '--settings'], { reject: false, env })
  // biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes are what this removes.
  const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '')
  const output = plain(`${gpu.stdout}\n${gpu.stderr}`)
  expect(gpu.exitCode, output).toBe(1)
  expect(doctor.exitCode).toBe(1)
  const lines = doctor.stderr.split('\n')
  expect(lines).toHaveLength(3)
  for (const line of lines) expect(plain(gpu.stderr).split('\n')).toContain(line)
  expect(output).toContain('virnucpro-bench: gpu project: 3 bad setting(s), named above; nothing was run')
  expect(output).not.toContain('No test files found')
  expect(output).not.toMatch(/^\s+at /m)
  expect(output).not.toMatch(/✓|×|skipped \(/)
})

// Issue 40, cases 4 and 6: a task name that leaves its folder (its work files landed in the run directory itself) and
// FRESH=1 beside a pinned run ID (ignored) are refused by the suite as by doctor, before anything is made.
test('VIRNUCPRO_BENCH_TASK=.. and FRESH=1 beside a pinned RUN_ID: refused, one line each, nothing made', {
  timeout: 120_000,
}, async () => {
  const results = join(dir, 'results')
  const env = {
    VIRNUCPRO_BENCH_TASK: '..',
    VIRNUCPRO_BENCH_FRESH: '1',
    VIRNUCPRO_BENCH_RUN_ID: '2026-11-28T00-00-00Z-ab12',
    VIRNUCPRO_BENCH_RESULTS_DIR: results,
    VITEST_SUMMARY_FILE: '',
    NO_COLOR: '1',
  }
  const gpu = await execa('npx', ['vitest', 'run', '--project', 'gpu'], { reject: false, env })
  const doctor = await execa('node', ['src/cli.ts', 'doctor', '--settings'], { reject: false, env })
  const output = `${gpu.stdout}\n${gpu.stderr}`
  expect(gpu.exitCode, output).toBe(1)
  expect(doctor.exitCode, doctor.stderr).toBe(1)
  const lines = doctor.stderr.split('\n').filter((l) => l.length > 0)
  expect(lines.some((l) => l.includes("VIRNUCPRO_BENCH_TASK='..'"))).toBe(true)
  expect(lines.some((l) => l.includes('VIRNUCPRO_BENCH_FRESH=1 with VIRNUCPRO_BENCH_RUN_ID'))).toBe(true)
  for (const line of lines) expect(gpu.stderr.split('\n')).toContain(line)
  expect(output).toContain(`virnucpro-bench: gpu project: ${lines.length} bad setting(s), named above; nothing was run`)
  expect(output).not.toMatch(/^\s+at /m)
  expect(existsSync(results)).toBe(false)
})

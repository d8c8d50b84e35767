// `virnucpro-bench monitor` as a real process on the fake libnvidia-ml: wrapping a command, Ctrl-C, bad options.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { parseMonitorArgs } from '../../src/cli/monitor.ts'
import { UsageError } from '../../src/cli/usage-error.ts'
import type { MonitorSummary } from '../../src/monitor/summary/summarize.ts'
import { ADDON_PATH, tempLogPath, useFake } from './support/fake.ts'

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support', 'run-cli.ts')

interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

function runCli(
  args: string[],
  onStderr?: (text: string, child: ReturnType<typeof spawn>) => void,
  env: Record<string, string> = {},
): Promise<CliRun> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, VIRNUCPRO_BENCH_NVML_ADDON: ADDON_PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d
  })
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d
    onStderr?.(stderr, child)
  })
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })))
}

const PIPELINE = [
  'echo "=== Stage 5: DNABERT-S Feature Extraction ==="',
  'sleep 0.4',
  'echo "  DNABERT-S Feature Extraction completed in 0.4s"',
  'echo "=== Stage 6: ESM-2 Feature Extraction ==="',
  'sleep 0.4',
  'echo "  ESM-2 Feature Extraction completed in 0.4s"',
  'exit 3',
].join('; ')

describe('monitor -- COMMAND', () => {
  test("tags stages from the command's log, prints the summary and returns the command's exit code", async () => {
    useFake({ devices: [{ utilGpuPct: [20, 80] }, { utilGpuPct: 0 }] })
    const out = tempLogPath()
    const result = await runCli(['--interval-ms', '20', '--out', out, '--json', '--', 'sh', '-c', PIPELINE])
    expect(result.code).toBe(3)
    expect(result.stderr).toContain('=== Stage 6: ESM-2 Feature Extraction ===')
    const summary = JSON.parse(result.stdout) as MonitorSummary
    expect(summary.logPath).toBe(out)
    expect(existsSync(out)).toBe(true)
    expect(summary.stages.map((s) => s.stage)).toEqual([
      null,
      'DNABERT-S Feature Extraction',
      'ESM-2 Feature Extraction',
    ])
    const esm = summary.stages[2]!
    expect(esm.durationMs).toBeGreaterThan(300)
    expect(esm.gpus[0]!.metrics.utilPct).toMatchObject({ min: 20, max: 80 })
    expect(summary.attribution.state).toBe('attributed')
  })

  test('a command that cannot start gives 127 and still a summary', async () => {
    useFake({ devices: [{}] })
    const result = await runCli(['--out', tempLogPath(), '--', '/nonexistent/program'])
    expect(result.code).toBe(127)
    expect(result.stdout).toMatch(/^GPU monitor: /)
    expect(result.stderr).toMatch(/cannot start '\/nonexistent\/program'/)
  })
})

describe('monitor until Ctrl-C', () => {
  test('SIGINT stops sampling, prints the text summary and exits 0', async () => {
    useFake({ devices: [{ name: 'NVIDIA H200' }] })
    let sent = false
    const result = await runCli(['--interval-ms', '50', '--out', tempLogPath()], (stderr, child) => {
      if (!sent && stderr.includes('Ctrl-C to stop')) {
        sent = true
        setTimeout(() => child.kill('SIGINT'), 300)
      }
    })
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^GPU monitor: .* at 50 ms, GPUs 0/)
    expect(result.stdout).toContain('GPU 0 (NVIDIA H200): util avg')
  })

  test('no libnvidia-ml: one line saying why, exit 1', async () => {
    const result = await runCli(['--out', tempLogPath()], undefined, {
      VIRNUCPRO_BENCH_NVML_LIB: '/nonexistent/libnvidia-ml.so.1',
    })
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(
      /^virnucpro-bench monitor: cannot monitor: \/nonexistent\/libnvidia-ml\.so\.1 not found/,
    )
    expect(result.stdout).toBe('')
  })
})

describe('arguments', () => {
  test('options before --, the command after it', () => {
    expect(
      parseMonitorArgs(['--interval-ms', '10', '--gpus', '0,2', '--', 'python', '-m', 'x', '--gpus', '1']),
    ).toEqual({
      intervalMs: 10,
      gpus: [0, 2],
      out: undefined,
      json: false,
      command: ['python', '-m', 'x', '--gpus', '1'],
    })
  })

  test.each([
    [['--interval-ms', '0'], /--interval-ms must be an integer >= 1, got '0'/],
    [['--gpus', '0,a'], /--gpus must be GPU indices like 0,1, got '0,a'/],
    [['--'], /'--' must be followed by a command/],
    [['--every', '5'], /monitor: unknown option '--every'/],
  ])('%j is a usage error naming the option', (args, message) => {
    expect(() => parseMonitorArgs(args)).toThrow(UsageError)
    expect(() => parseMonitorArgs(args)).toThrow(message)
  })
})

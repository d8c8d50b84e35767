// `virnucpro-bench monitor` as a real process on the fake libnvidia-ml: wrapping a command, Ctrl-C, bad options.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { execa } from 'execa'
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
    // stdout is the command's, untouched; the summary is on stderr, last, after a line saying how the command ended.
    expect(result.stdout).toContain('=== Stage 6: ESM-2 Feature Extraction ===\n')
    expect(result.stdout).not.toContain('GPU monitor')
    expect(result.stderr).toMatch(/\nvirnucpro-bench monitor: sh exited with status 3 after \d+\.\d s\n\{\n/)
    const summary = JSON.parse(result.stderr.slice(result.stderr.indexOf('\n{\n') + 1)) as MonitorSummary & {
      command: unknown
    }
    expect(summary.command).toEqual({ argv: ['sh', '-c', PIPELINE], exitCode: 3, signal: null, spawnError: null })
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
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/cannot start '\/nonexistent\/program'.*\nGPU monitor: /s)
  })

  test("the command's output passes through byte for byte, each stream to ours, invalid UTF-8 included", async () => {
    useFake({ devices: [{}] })
    const bytes = String.raw`printf 'out \377\376 caf\303\251\n'; printf 'err \200\n' >&2; printf 'no newline'`
    const child = spawn(process.execPath, [CLI, '--out', tempLogPath(), '--', 'sh', '-c', bytes], {
      env: { ...process.env, VIRNUCPRO_BENCH_NVML_ADDON: ADDON_PATH },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout!.on('data', (d: Buffer) => out.push(d))
    child.stderr!.on('data', (d: Buffer) => err.push(d))
    const code = await new Promise((resolve) => child.once('close', resolve))
    expect(code).toBe(0)
    expect(Buffer.concat(out)).toEqual(
      Buffer.from([...Buffer.from('out '), 0xff, 0xfe, ...Buffer.from(' café\nno newline')]),
    )
    expect(Buffer.concat(err).includes(Buffer.from([...Buffer.from('err '), 0x80, 0x0a]))).toBe(true)
  })

  test('a command killed by SIGKILL: exit 137, and a line saying so before the summary', async () => {
    useFake({ devices: [{}] })
    const result = await runCli(['--out', tempLogPath(), '--', 'sh', '-c', 'echo started; kill -9 $$'])
    expect(result.code).toBe(137)
    expect(result.stdout).toBe('started\n')
    expect(result.stderr).toMatch(
      /\nvirnucpro-bench monitor: sh was killed by SIGKILL after \d+\.\d s \(exit 137\): the summary covers it up to then\nGPU monitor: /,
    )
  })

  test('--out at an existing file or a directory: refused before sampling, the file untouched', async () => {
    const existing = tempLogPath()
    writeFileSync(existing, 'earlier log\n')
    for (const out of [existing, path.dirname(existing)]) {
      // Through src/cli.ts, which turns the refusal into its line and exit code.
      const result = await execa('node', ['src/cli.ts', 'monitor', '--out', out, '--', 'true'], { reject: false })
      expect(result.exitCode).toBe(3)
      expect(result.stderr).toMatch(
        /^virnucpro-bench: monitor: --out '.*' (exists already|is a directory): give a new file \(a monitor log is never appended to or replaced\)$/,
      )
    }
    expect(readFileSync(existing, 'utf8')).toBe('earlier log\n')
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

  test('no libnvidia-ml: one line saying why, exit 3', async () => {
    const result = await runCli(['--out', tempLogPath()], undefined, {
      VIRNUCPRO_BENCH_NVML_LIB: '/nonexistent/libnvidia-ml.so.1',
    })
    expect(result.code).toBe(3)
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

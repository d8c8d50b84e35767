import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  CPU_TINY,
  messages,
  pythonExecutable,
  REFPIPE_ROOT,
  readTsv,
  runRefpipe,
  skipReason,
  stageSeconds,
  writeTinyFixture,
} from './support.ts'

// Each fault must have its effect, and its one `Injected fault:` line, so a detector test can tell the planted fault
// from the suite's verdict.

/** Small ESM-2 batches, so per-batch faults act several times on the TINY fixture. */
const SMALL_BATCHES = ['--esm-batch-size', '512']

describe.skipIf(skipReason !== null)('refpipe fault injection (tiny scale, CPU)', () => {
  let dir: string
  let fasta: string
  let runIndex = 0
  const out = () => join(dir, `out-${runIndex++}`)
  const results = (o: string) => join(o, 'part-001_merged', 'prediction_results.txt')

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'refpipe-inject-'))
    fasta = await writeTinyFixture(join(dir, 'fixture'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  test('crash-at ends the run with exit 1 at that stage and publishes no outputs', async () => {
    const o = out()
    const run = await runRefpipe(['predict', fasta, '-o', o, ...CPU_TINY, '--inject', 'crash-at=feature merging'])
    expect(run.exitCode).toBe(1)
    const m = messages(run.lines)
    expect(m).toContain('Injected fault: crash-at=Feature Merging: failing the run here (exit 1)')
    expect(m).toContain('=== Stage 7: Feature Merging ===')
    expect(stageSeconds(run.lines, 'Feature Merging')).toBeNull()
    expect(existsSync(results(o))).toBe(false)
  })

  test('hang-at stops the run at that stage until it is killed', async () => {
    const o = out()
    const args = [
      '-m',
      'refpipe',
      'predict',
      fasta,
      '-o',
      o,
      ...CPU_TINY,
      '--inject',
      'hang-at=ESM-2 Feature Extraction',
    ]
    const child = spawn(pythonExecutable(), args, { env: { ...process.env, PYTHONPATH: REFPIPE_ROOT }, stdio: 'pipe' })
    let log = ''
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (data: Buffer) => {
        log += data.toString()
        if (log.includes('Injected fault: hang-at=ESM-2 Feature Extraction')) resolve()
      })
    })
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(child.exitCode).toBeNull()
    child.kill('SIGTERM')
    await exited
    expect(log).toContain('=== Stage 6: ESM-2 Feature Extraction ===')
    expect(log).not.toContain('ESM-2 Feature Extraction completed in')
    expect(existsSync(results(o))).toBe(false)
  })

  test('partial ends with exit 2 and outputs for the files that did not fail', async () => {
    const full = out()
    const o = out()
    expect((await runRefpipe(['predict', fasta, '-o', full, ...CPU_TINY])).exitCode).toBe(0)
    const run = await runRefpipe(['predict', fasta, '-o', o, ...CPU_TINY, '--inject', 'partial'])
    expect(run.exitCode).toBe(2)
    expect(run.stdout).toMatch(/Injected fault: partial: ESM-2 file output_1\.fa fails/)
    const all = (await readTsv(results(full))).rows.map((r) => r[0])
    const kept = (await readTsv(results(o))).rows.map((r) => r[0])
    expect(kept.length).toBeGreaterThan(0)
    expect(kept.length).toBeLessThan(all.length)
    expect(all.slice(0, kept.length)).toEqual(kept)
  })

  test('oom fails a real allocation and exits 4 with an out-of-memory line on stdout', async () => {
    const run = await runRefpipe(['predict', fasta, '-o', out(), ...CPU_TINY, '--inject', 'oom'])
    expect(run.exitCode).toBe(4)
    expect(run.stdout).toMatch(/Injected fault: oom: allocating/)
    expect(run.stdout).toMatch(/ERROR - CPU out of memory: .*can't allocate memory/)
  })

  test('slow-stage holds that stage for the given seconds', async () => {
    const run = await runRefpipe([
      'predict',
      fasta,
      '-o',
      out(),
      ...CPU_TINY,
      '--inject',
      'slow-stage=Feature Merging:1.5',
    ])
    expect(run.exitCode).toBe(0)
    expect(run.stdout).toContain('Injected fault: slow-stage=Feature Merging:1.5')
    expect(stageSeconds(run.lines, 'Feature Merging')).toBeGreaterThanOrEqual(1.5)
  })

  test('cpu-stall-ms sleeps before every ESM-2 batch', async () => {
    const run = await runRefpipe([
      'predict',
      fasta,
      '-o',
      out(),
      ...CPU_TINY,
      ...SMALL_BATCHES,
      '--inject',
      'cpu-stall-ms=250',
    ])
    expect(run.exitCode).toBe(0)
    expect(run.stdout).toContain('Injected fault: cpu-stall-ms=250')
    const batches = messages(run.lines).filter((l) => /^Batch \d+: /.test(l)).length
    expect(batches).toBeGreaterThanOrEqual(3)
    expect(stageSeconds(run.lines, 'ESM-2 Feature Extraction')).toBeGreaterThanOrEqual(0.25 * batches - 0.05)
  })

  test('prework-ms-per-seq works through the ESM-2 input before its first batch, in proportion to it', async () => {
    const run = await runRefpipe(['predict', fasta, '-o', out(), ...CPU_TINY, '--inject', 'prework-ms-per-seq=20'])
    expect(run.exitCode).toBe(0)
    const m = messages(run.lines)
    const line = m.find((l) => l.startsWith('Injected fault: prework-ms-per-seq=20: '))
    const proteins = Number(/ESM-2: ([\d,]+) sequences on /.exec(m.join('\n'))?.[1]?.replaceAll(',', ''))
    expect(proteins).toBeGreaterThan(0)
    expect(line).toContain(`${proteins.toLocaleString('en-US')} sequences x 20 ms`)
    // Before the first batch: the fault line comes before every `Batch` line of the stage.
    expect(m.indexOf(line!)).toBeLessThan(m.findIndex((l) => /^Batch \d+: /.test(l)))
    expect(stageSeconds(run.lines, 'ESM-2 Feature Extraction')).toBeGreaterThanOrEqual(0.02 * proteins - 0.05)
  })

  test('leak-mb keeps memory per batch: the process peak grows by at least batches x MiB', async () => {
    const base = await peakRss(['predict', fasta, '-o', out(), ...CPU_TINY, ...SMALL_BATCHES])
    const leak = await peakRss(['predict', fasta, '-o', out(), ...CPU_TINY, ...SMALL_BATCHES, '--inject', 'leak-mb=64'])
    expect(leak.log).toContain('Injected fault: leak-mb=64')
    const batches = messages(leak.log.split('\n')).filter((l) => /^Batch \d+: /.test(l)).length
    expect(batches).toBeGreaterThanOrEqual(3)
    expect(leak.peakKib - base.peakKib).toBeGreaterThan(0.8 * batches * 64 * 1024)
  })

  test('imbalance gives worker 0 extra work: it runs longer than worker 1', async () => {
    const run = await runRefpipe([
      'predict',
      fasta,
      '-o',
      out(),
      ...CPU_TINY,
      ...SMALL_BATCHES,
      '--cpu-workers',
      '2',
      '--inject',
      'imbalance=4',
    ])
    expect(run.exitCode, run.stderr).toBe(0)
    expect(run.stderr).toMatch(
      /Worker 0 - \S+ - WARNING - Injected fault: imbalance=4: worker 0 repeats \d+ of its \d+/,
    )
    const seconds = (rank: number) => {
      const esm = run.stdout.slice(run.stdout.indexOf('=== Stage 6'))
      const m = new RegExp(`Worker ${rank} finished: .* in ([\\d.]+)s`).exec(esm)
      return Number(m?.[1])
    }
    expect(seconds(0)).toBeGreaterThan(seconds(1))
  })

  test('misplace says why it cannot move work on a machine without CUDA', async () => {
    const run = await runRefpipe(['predict', fasta, '-o', out(), ...CPU_TINY, '--inject', 'misplace'])
    expect(run.exitCode).toBe(0)
    expect(run.stdout).toContain('Injected fault: misplace: no CUDA device here')
  })

  test('REFPIPE_INJECT arms faults from the environment, stage names case-insensitive', async () => {
    const run = await runRefpipe(['predict', fasta, '-o', out(), ...CPU_TINY], {
      REFPIPE_INJECT: 'crash-at=MODEL PREDICTION',
    })
    expect(run.exitCode).toBe(1)
    expect(run.stdout).toContain('Injected fault: crash-at=Model Prediction')
  })

  test('an unknown fault is a usage error (exit 2) naming it', async () => {
    const run = await runRefpipe(['predict', fasta, '-o', out(), ...CPU_TINY, '--inject', 'explode=1'])
    expect(run.exitCode).toBe(2)
    expect(run.stdout).toContain("--inject 'explode=1': unknown fault 'explode'")
  })
})

/** Runs refpipe and polls its peak resident memory (VmHWM, KiB) from /proc until it exits. */
async function peakRss(args: string[]): Promise<{ peakKib: number; log: string }> {
  const child = spawn(pythonExecutable(), ['-m', 'refpipe', ...args], {
    env: { ...process.env, PYTHONPATH: REFPIPE_ROOT, REFPIPE_INJECT: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  let peakKib = 0
  child.stdout.on('data', (data: Buffer) => {
    log += data.toString()
  })
  const timer = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))
      if (m) peakKib = Math.max(peakKib, Number(m[1]))
    } catch {
      // The process has exited between two polls.
    }
  }, 20)
  await new Promise((resolve) => child.on('exit', resolve))
  clearInterval(timer)
  return { peakKib, log }
}

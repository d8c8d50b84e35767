import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { execa } from 'execa'
import { generateFixture } from '../../src/input/generate.ts'
import { resolveParams } from '../../src/input/presets.ts'
import { PIPELINE_STAGES } from '../../src/pipeline/stages.ts'
import { findTorchPython } from '../../src/platform/python.ts'
import { toolProblem } from '../support/optional-tools.ts'

/** Helpers for the tests that drive the reference pipeline as a real process (python3 -m refpipe). */

export const REFPIPE_ROOT = resolve(import.meta.dirname, '../../reference-pipeline')

const probe = findTorchPython()

/**
 * Why the reference-pipeline tests cannot run here, or null when a Python with torch was found.
 * @throws Error where VIRNUCPRO_BENCH_REQUIRE_TOOLS names torch and none was found (test/support/optional-tools.ts).
 */
export const skipReason: string | null = toolProblem('torch', probe.state === 'found' ? null : probe.reason)

export interface RefpipeRun {
  exitCode: number | undefined
  stdout: string
  stderr: string
  /** stdout lines: the main process's log. */
  lines: string[]
}

/** Runs `python3 -m refpipe ...args` with stdin closed; never throws on a non-zero exit. */
export async function runRefpipe(args: string[], env: Record<string, string> = {}): Promise<RefpipeRun> {
  if (probe.state !== 'found') throw new Error(`runRefpipe: ${probe.reason}`)
  const result = await execa(probe.executable, ['-m', 'refpipe', ...args], {
    env: { PYTHONPATH: REFPIPE_ROOT, REFPIPE_INJECT: '', ...env },
    stdin: 'ignore',
    reject: false,
    timeout: 60_000,
  })
  const stdout = String(result.stdout)
  return { exitCode: result.exitCode, stdout, stderr: String(result.stderr), lines: stdout.split('\n') }
}

/** The interpreter the tests use (for runs that need a raw child process). */
export function pythonExecutable(): string {
  if (probe.state !== 'found') throw new Error(`pythonExecutable: ${probe.reason}`)
  return probe.executable
}

/** Generates the TINY preset (10 records, 200-500 bp, gene-dense) under `dir`; returns the FASTA path. */
export async function writeTinyFixture(dir: string, seed = 7): Promise<string> {
  await generateFixture(resolveParams('TINY', { seed }), dir)
  return join(dir, 'part-001.fa')
}

/** A tab-separated file as its header and rows. */
export async function readTsv(path: string): Promise<{ header: string[]; rows: string[][] }> {
  const lines = (await readFile(path, 'utf8')).split('\n').filter((line) => line !== '')
  const [header = '', ...rows] = lines
  return { header: header.split('\t'), rows: rows.map((row) => row.split('\t')) }
}

/** The messages of a log (the part after `LEVEL - `). */
export function messages(lines: string[]): string[] {
  return lines.map((line) => line.replace(/^\S+ \S+ - (?:Worker \d+ - )?\S+ - [A-Z]+ - /, ''))
}

/** Seconds printed by `  {stage} completed in {s}s`, or null when the stage did not end. */
export function stageSeconds(lines: string[], stage: string): number | null {
  for (const message of messages(lines)) {
    const m = /^ {2}(.+) completed in ([\d.]+)s/.exec(message)
    if (m && m[1] === stage) return Number(m[2])
  }
  return null
}

export const STAGES = PIPELINE_STAGES

/** Options every CPU test run uses: tiny models on the CPU, tokenization in-process (fast start). */
export const CPU_TINY = ['-d', 'cpu', '--model-scale', 'tiny', '-w', '0']

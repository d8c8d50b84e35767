// A failed run's reason carries its own error line, through the real runner and a real python3: the case (a
// VirNucPro that logs a stage, then dies importing `_aligncore` from a Bio without it) and the fallbacks. The fake
// target's crash (a traceback on stderr) is in runner.test.ts.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { type TargetProfile, UPSTREAM_EXIT_CODES } from '../../src/pipeline/profiles.ts'
import { runTarget } from '../../src/pipeline/runner.ts'
import { fakeProfile, PYTHON, useWorkdir } from './support/fake-profile.ts'

const work = useWorkdir({ orphans: false })

/** A target that runs `code` under python3 (arguments after it, `predict ...`, are ignored). */
function scriptProfile(code: string, env: Record<string, string> = {}): TargetProfile {
  return {
    ...fakeProfile(),
    name: 'script',
    exitCodes: UPSTREAM_EXIT_CODES,
    launcher: async () => ({ state: 'ready', launcher: { file: PYTHON, args: ['-c', code], env } }),
  }
}

/** A Bio package without `Align._aligncore`: importing it raises the ImportError for real. */
function brokenBio(dir: string): string {
  mkdirSync(join(dir, 'Bio', 'Align'), { recursive: true })
  writeFileSync(join(dir, 'Bio', '__init__.py'), '')
  writeFileSync(join(dir, 'Bio', 'Align', '__init__.py'), '')
  return join(dir, 'Bio', 'Align', '__init__.py')
}

const VIRNUCPRO_START = [
  'import logging, sys',
  "logging.basicConfig(stream=sys.stdout, format='%(asctime)s - %(name)s - %(levelname)s - %(message)s', level=logging.INFO)",
  "logging.getLogger('virnucpro.pipeline.prediction').info('=== Stage 1: Sequence Chunking ===')",
  'sys.stdout.flush()',
].join('\n')

describe('a failed run names its error line', () => {
  test("the issue's ImportError: exit code 1 and the exception line, not only the exit code", async () => {
    const init = brokenBio(work.dir)
    const profile = scriptProfile(`${VIRNUCPRO_START}\nfrom Bio.Align import _aligncore`, { PYTHONPATH: work.dir })
    const record = await runTarget(profile, { input: work.input, outputDir: work.outputDir, graceMs: 1_000 })
    expect(record.exitClass).toBe('failed')
    expect(record.reason).toBe(`exit code 1: ImportError: cannot import name '_aligncore' from 'Bio.Align' (${init})`)
    expect(record.stages.map((s) => s.name)).toEqual(['Sequence Chunking'])
  })

  test('no traceback and no ERROR line: the last stderr line, however much stdout follows it', async () => {
    // The pause keeps the two pipes' order: without it both arrive at exit, in whichever order the reads land.
    const code =
      "import sys, time\nsys.stderr.write('CUDA driver version is insufficient\\n')\nsys.stderr.flush()\ntime.sleep(0.3)\nprint('x\\n' * 80)\nsys.exit(2)"
    const record = await runTarget(scriptProfile(code), { input: work.input, outputDir: work.outputDir })
    expect(record.exitClass).toBe('partial')
    expect(record.reason).toBe('exit code 2: CUDA driver version is insufficient')
    expect(record.logTail.join('\n')).not.toContain('CUDA driver')
  })

  test('a run the harness timed out keeps the timeout as its reason (its last line is wherever it was stopped)', async () => {
    const code =
      "import sys, time\nsys.stderr.write('Traceback (most recent call last):\\nValueError: x\\n')\nsys.stderr.flush()\ntime.sleep(30)"
    const record = await runTarget(scriptProfile(code), {
      input: work.input,
      outputDir: work.outputDir,
      timeoutMs: 1_000,
      graceMs: 500,
    })
    expect(record).toMatchObject({ exitClass: 'timeout', reason: 'timed out after 1000 ms' })
  })
})

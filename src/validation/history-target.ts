/**
 * The history's known answer needs a target whose commits change its speed: a real git checkout run as `python -m
 * virnucpro` (the `virnucpro` profile, VIRNUCPRO_DIR), one commit a night, where the night `stepAt` commit adds a fault
 * injection of the bundled reference pipeline (`--inject cpu-stall-ms=...`) that every later commit keeps. The
 * checkout's `virnucpro` package only hands its arguments, and its commit's `inject.txt`, to refpipe: the pipeline is
 * the reference one, the commits and their provenance are real. Records name it (provenance.target.dir, .git).
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { execa } from 'execa'
import { REPO_ROOT } from '../pipeline/profiles.ts'

/** What the shim runs: refpipe's own entry point, with the commit's injections after the caller's arguments. */
const MAIN_PY = `"""VirNucPro's command line over the bundled reference pipeline (virnucpro-bench's history known answer)."""
import runpy
import sys
from pathlib import Path

extra = (Path(__file__).with_name("inject.txt").read_text(encoding="utf-8")).split()
sys.argv = [sys.argv[0], *sys.argv[1:], *extra]
runpy.run_module("refpipe", run_name="__main__", alter_sys=True)
`

export interface SteppedTarget {
  /** The checkout (VIRNUCPRO_DIR). */
  dir: string
  /** The commit of each night, oldest first (40-hex SHAs). */
  commits: string[]
  /** Environment the runs need: refpipe importable by the shim. */
  env: Record<string, string>
}

async function git(dir: string, ...args: string[]): Promise<string> {
  const env = {
    GIT_AUTHOR_NAME: 'virnucpro-bench',
    GIT_AUTHOR_EMAIL: 'bench@localhost',
    GIT_COMMITTER_NAME: 'virnucpro-bench',
    GIT_COMMITTER_EMAIL: 'bench@localhost',
  }
  return (await execa('git', args, { cwd: dir, env })).stdout.trim()
}

/**
 * Creates the checkout in `dir` with `nights` commits: from commit `stepAt` on, `inject.txt` holds `--inject
 * <inject>` (e.g. `cpu-stall-ms=1000`). Check a night out with `checkoutNight`.
 * @throws Error when git is missing or a commit fails (the message is git's).
 */
export async function createSteppedTarget(
  dir: string,
  options: { nights: number; stepAt: number; inject: string },
): Promise<SteppedTarget> {
  if (!(options.stepAt > 0 && options.stepAt < options.nights))
    throw new Error(`stepAt must be inside the nights (1..${options.nights - 1}), got ${options.stepAt}`)
  await mkdir(join(dir, 'virnucpro'), { recursive: true })
  await writeFile(join(dir, 'virnucpro', '__init__.py'), '')
  await writeFile(join(dir, 'virnucpro', '__main__.py'), MAIN_PY)
  await git(dir, 'init', '-q', '-b', 'main')
  const commits: string[] = []
  for (let night = 0; night < options.nights; night++) {
    const inject = night >= options.stepAt ? `--inject ${options.inject}\n` : ''
    await writeFile(join(dir, 'virnucpro', 'inject.txt'), inject)
    await git(dir, 'add', '-A')
    const what = night === options.stepAt ? `add ${options.inject}` : 'unchanged'
    await git(dir, 'commit', '-q', '--allow-empty', '-m', `night ${night}: ${what}`)
    commits.push(await git(dir, 'rev-parse', 'HEAD'))
  }
  return { dir, commits, env: { PYTHONPATH: join(REPO_ROOT, 'reference-pipeline') } }
}

/** Checks out night `night`'s commit (detached), so the runs and their provenance are that commit's. */
export async function checkoutNight(target: SteppedTarget, night: number): Promise<void> {
  await git(target.dir, 'checkout', '-q', '--detach', target.commits[night]!)
}

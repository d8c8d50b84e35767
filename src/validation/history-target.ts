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
  const target = await createPlainTarget(dir, options.stepAt)
  await appendStep(target, options.nights - options.stepAt, options.inject)
  return target
}

/**
 * Creates the checkout in `dir` with `nights` commits that inject nothing, for a caller that sizes its step from what
 * these nights measured on this machine and then adds it with `appendStep`.
 * @throws Error when git is missing or a commit fails (the message is git's).
 */
export async function createPlainTarget(dir: string, nights: number): Promise<SteppedTarget> {
  if (!(nights > 0)) throw new Error(`a target needs at least one night, got ${nights}`)
  await mkdir(join(dir, 'virnucpro'), { recursive: true })
  await writeFile(join(dir, 'virnucpro', '__init__.py'), '')
  await writeFile(join(dir, 'virnucpro', '__main__.py'), MAIN_PY)
  await git(dir, 'init', '-q', '-b', 'main')
  const target: SteppedTarget = { dir, commits: [], env: { PYTHONPATH: join(REPO_ROOT, 'reference-pipeline') } }
  for (let night = 0; night < nights; night++) await commitNight(target, '', 'unchanged')
  return target
}

/**
 * Appends `nights` commits to `target` (its `commits` grow): the first adds `--inject <inject>` to `inject.txt`, every
 * later one keeps it.
 * @throws Error when git fails (the message is git's).
 */
export async function appendStep(target: SteppedTarget, nights: number, inject: string): Promise<void> {
  if (!(nights > 0)) throw new Error(`a step needs at least one night, got ${nights}`)
  for (let i = 0; i < nights; i++)
    await commitNight(target, `--inject ${inject}\n`, i === 0 ? `add ${inject}` : 'unchanged')
}

async function commitNight(target: SteppedTarget, injectTxt: string, what: string): Promise<void> {
  // Back on the branch's tip: a night measured since has left the checkout detached at its own commit.
  if (target.commits.length > 0) await git(target.dir, 'checkout', '-q', 'main')
  await writeFile(join(target.dir, 'virnucpro', 'inject.txt'), injectTxt)
  await git(target.dir, 'add', '-A')
  await git(target.dir, 'commit', '-q', '--allow-empty', '-m', `night ${target.commits.length}: ${what}`)
  target.commits.push(await git(target.dir, 'rev-parse', 'HEAD'))
}

/** Checks out night `night`'s commit (detached), so the runs and their provenance are that commit's. */
export async function checkoutNight(target: SteppedTarget, night: number): Promise<void> {
  await git(target.dir, 'checkout', '-q', '--detach', target.commits[night]!)
}

import { randomUUID } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, expect } from 'vitest'
import { probePython } from '../../../src/pipeline/preflight.ts'
import { type TargetProfile, UPSTREAM_EXIT_CODES } from '../../../src/pipeline/profiles.ts'

/** Test support: a profile that runs test/pipeline/fakes/fake_target.py, a real process speaking the upstream contract. */

export const FAKE_TARGET = fileURLToPath(new URL('../fakes/fake_target.py', import.meta.url))
export const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'

export function fakeProfile(python = PYTHON): TargetProfile {
  return {
    name: 'fake',
    gpuSelection: 'gpus-flag',
    exitCodes: UPSTREAM_EXIT_CODES,
    launcher: async () => ({ state: 'ready', launcher: { file: python, args: [FAKE_TARGET], env: {} } }),
    preflight: (_env, gpusNeeded) => probePython({ python, module: 'json', gpusNeeded }),
  }
}

export interface Workdir {
  dir: string
  input: string
  outputDir: string
  /** A unique value put in the target's environment, so /proc/<pid>/environ finds every process it started. */
  tag: string
  remove(): Promise<void>
}

export async function makeWorkdir(): Promise<Workdir> {
  const dir = await mkdtemp(join(tmpdir(), 'runner-'))
  const input = join(dir, 'sample.fa')
  await writeFile(input, '>seq1\nACGTACGTACGT\n')
  return {
    dir,
    input,
    outputDir: join(dir, 'out'),
    tag: randomUUID(),
    remove: () => rm(dir, { recursive: true, force: true }),
  }
}

/**
 * A fresh work directory for each test of the file, removed after it; `orphans` (default true) also checks that no
 * process the target started outlives the test. One object, refilled before each test, so the tests read `work.input`.
 */
export function useWorkdir({ orphans = true }: { orphans?: boolean } = {}): Workdir {
  const work = {} as Workdir
  beforeEach(async () => {
    Object.assign(work, await makeWorkdir())
  })
  afterEach(async () => {
    if (orphans) expect(processesWithTag(work.tag)).toEqual([])
    await work.remove()
  })
  return work
}

/**
 * Live (non-zombie) PIDs whose environment carries `tag`: an independent check on the runner's cleanup, which also
 * sees processes that left the group or the session.
 */
export function processesWithTag(tag: string): number[] {
  const found: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue
      if (readFileSync(`/proc/${name}/environ`, 'latin1').includes(`FAKE_RUN_TAG=${tag}`)) found.push(Number(name))
    } catch {
      // gone or not ours to read
    }
  }
  return found
}

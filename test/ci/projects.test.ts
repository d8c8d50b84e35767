/**
 * The split of test/ into the `unit`, `integration`, `integration-timed`, `integration-alone` and `long` projects
 * (vitest.config.ts, test/support/integration-tests.ts): every test file runs in exactly one of them, so `.ci/run`,
 * which runs all but `long`, still runs every other test once, and a listed file that was renamed or removed is named
 * here instead of falling back into `unit` unseen.
 */
import { existsSync, globSync } from 'node:fs'
import { matchesGlob } from 'node:path'
import { describe, expect, test } from 'vitest'
import config from '../../vitest.config.ts'
import {
  ALONE_INTEGRATION_TEST_FILES,
  INTEGRATION_TEST_FILES,
  TIMED_INTEGRATION_TEST_FILES,
} from '../support/integration-tests.ts'
import { timedWorkers } from '../support/pin-core-plan.ts'

interface ProjectFiles {
  include: string[]
  exclude?: string[]
}

function projectFiles(name: string): string[] {
  const projects = (config.test?.projects ?? []) as { test: ProjectFiles & { name: string } }[]
  const project = projects.find((p) => p.test.name === name)
  if (!project) throw new Error(`vitest.config.ts has no project '${name}'`)
  const { include, exclude = [] } = project.test
  const files = include.flatMap((pattern) => globSync(pattern, { exclude: (path) => path === 'node_modules' }))
  return [...new Set(files)].filter((file) => !exclude.some((pattern) => matchesGlob(file, pattern))).sort()
}

describe('unit and integration projects', () => {
  const allTests = globSync('test/**/*.test.ts').sort()
  const unit = [...projectFiles('unit'), ...projectFiles('unit-isolated')]
  const integration = projectFiles('integration')
  const timed = projectFiles('integration-timed')
  const alone = projectFiles('integration-alone')
  const long = projectFiles('long')

  test('every listed integration file exists', () => {
    const listed = [...INTEGRATION_TEST_FILES, ...TIMED_INTEGRATION_TEST_FILES, ...ALONE_INTEGRATION_TEST_FILES]
    expect(listed.filter((file) => !existsSync(file))).toEqual([])
  })

  test('every test file under test/ is in exactly one of them', () => {
    const all = [...unit, ...integration, ...timed, ...alone, ...long]
    expect(all.filter((file, i) => all.indexOf(file) !== i)).toEqual([])
    expect(all.sort()).toEqual(allTests)
  })

  test('the integration projects hold their listed files and nothing else', () => {
    expect(integration).toEqual([...INTEGRATION_TEST_FILES].sort())
    expect(timed).toEqual([...TIMED_INTEGRATION_TEST_FILES].sort())
    expect(alone).toEqual([...ALONE_INTEGRATION_TEST_FILES].sort())
  })

  test('long holds the *.long.test.ts files, and only those', () => {
    expect(long.length).toBeGreaterThan(0)
    expect(long.every((file) => file.endsWith('.long.test.ts'))).toBe(true)
    expect(allTests.filter((file) => file.endsWith('.long.test.ts'))).toEqual(long)
  })

  test('unit shares its process among files; the files that leave state in theirs run isolated, and only those', () => {
    const projects = (config.test?.projects ?? []) as { test: { name: string; isolate?: boolean } }[]
    const of = (name: string) => projects.find((p) => p.test.name === name)!.test
    expect(of('unit').isolate).toBe(false)
    expect(of('unit-isolated').isolate).not.toBe(false)
    const isolated = projectFiles('unit-isolated')
    // The NVML tests load the addon on a fake library in their own process; a plain parser test does not.
    expect(isolated).toEqual(expect.arrayContaining(['test/nvml/native.test.ts', 'test/monitor/sampler.test.ts']))
    expect(isolated).not.toContain('test/measure/bootstrap.test.ts')
  })

  test('run together, unit goes first and integration after it, in a group of its own', () => {
    // One group cannot hold two projects whose maxWorkers differ (Vitest stops the run), and unit's and integration's
    // differ on any machine of 3 or more cores.
    const groupOrder = (name: string) => {
      const projects = (config.test?.projects ?? []) as { test: { name: string; sequence?: { groupOrder?: number } } }[]
      return projects.find((p) => p.test.name === name)?.test.sequence?.groupOrder ?? 0
    }
    expect(groupOrder('integration')).toBeGreaterThan(groupOrder('unit'))
  })

  test('integration-timed runs after the other CPU projects, each file on a core of its own, then integration-alone', () => {
    const projects = (config.test?.projects ?? []) as {
      test: { name: string; maxWorkers?: number; fileParallelism?: boolean; sequence?: { groupOrder?: number } }
    }[]
    const of = (name: string) => projects.find((p) => p.test.name === name)!.test
    const order = (name: string) => of(name).sequence?.groupOrder ?? 0
    expect(order('integration-timed')).toBeGreaterThan(order('integration'))
    // The history's known answer alone after them (test/support/integration-tests.ts says why), one file at a time.
    expect(order('integration-alone')).toBeGreaterThan(order('integration-timed'))
    expect(of('integration-alone')).toMatchObject({ maxWorkers: 1, fileParallelism: false })
    expect(order('long')).toBeGreaterThan(order('integration-alone'))
    // Two side by side where each can be pinned to a core of its own (2+ cores and taskset), one at a time otherwise.
    const workers = timedWorkers()
    expect(of('integration-timed')).toMatchObject({ maxWorkers: workers, fileParallelism: workers > 1 })
    expect((of('integration-timed') as { setupFiles?: string[] }).setupFiles).toContain('test/support/pin-core.ts')
  })
})

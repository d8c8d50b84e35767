/**
 * The split of test/ into the `unit` and `integration` projects (vitest.config.ts, test/support/integration-tests.ts):
 * every test file runs in exactly one of them, so `.ci/run`, which runs both, still runs every test once, and a
 * listed file that was renamed or removed is named here instead of falling back into `unit` unseen.
 */
import { existsSync, globSync } from 'node:fs'
import { matchesGlob } from 'node:path'
import { describe, expect, test } from 'vitest'
import config from '../../vitest.config.ts'
import { INTEGRATION_TEST_FILES } from '../support/integration-tests.ts'

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
  const unit = projectFiles('unit')
  const integration = projectFiles('integration')

  test('every listed integration file exists', () => {
    expect(INTEGRATION_TEST_FILES.filter((file) => !existsSync(file))).toEqual([])
  })

  test('every test file under test/ is in exactly one of them', () => {
    expect(unit.filter((file) => integration.includes(file))).toEqual([])
    expect([...unit, ...integration].sort()).toEqual(allTests)
  })

  test('integration holds the listed files and nothing else', () => {
    expect(integration).toEqual([...INTEGRATION_TEST_FILES].sort())
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
})

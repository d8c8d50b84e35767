import { resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { TestSpecification, Vitest } from 'vitest/node'
import { TIMED_INTEGRATION_TEST_FILES } from './integration-tests.ts'
import { inListedOrder, ListedOrderSequencer } from './listed-order.ts'

const ROOT = resolve(import.meta.dirname, '../..')

describe('the timed files in their list order', () => {
  test("a project's listed files take the list's order among their places; unlisted ones follow; others stay", () => {
    const files = [
      { project: 'unit', file: 'u1' },
      { project: 'timed', file: 'c' },
      { project: 'timed', file: 'x' },
      { project: 'timed', file: 'a' },
      { project: 'timed', file: 'b' },
      { project: 'alone', file: 'z' },
    ]
    expect(inListedOrder(files, 'timed', ['a', 'b', 'c']).map((f) => f.file)).toEqual(['u1', 'a', 'b', 'c', 'x', 'z'])
    expect(inListedOrder(files, 'none', ['a'])).toEqual(files)
  })

  test("vitest's sequencer with it: the timed project's files run in the list's order, whatever their sizes", async () => {
    // What Vitest's own sort reads of a file (BaseSequencer): its project's group, name and isolation, and its path,
    // with no cached results (a clean clone), so the file sizes decide: the largest first.
    const project = (name: string, groupOrder: number) => ({
      name,
      config: { sequence: { groupOrder }, isolate: true },
    })
    const timed = project('integration-timed', 2)
    const spec = (p: ReturnType<typeof project>, file: string) =>
      ({ project: p, moduleId: resolve(ROOT, file) }) as unknown as TestSpecification
    const specs = [
      ...[...TIMED_INTEGRATION_TEST_FILES].reverse().map((f) => spec(timed, f)),
      spec(project('integration-alone', 3), 'test/validation/history-known-answer.test.ts'),
      spec(project('integration', 1), 'test/engine/continue-campaign.test.ts'),
    ]
    const ctx = { config: { root: ROOT }, cache: { getTestSpecificationResult: () => undefined } }
    const sorted = await new ListedOrderSequencer(ctx as unknown as Vitest).sort(specs)
    expect(sorted.map((s) => s.moduleId.slice(ROOT.length + 1))).toEqual([
      'test/engine/continue-campaign.test.ts',
      ...TIMED_INTEGRATION_TEST_FILES,
      'test/validation/history-known-answer.test.ts',
    ])
  })
})

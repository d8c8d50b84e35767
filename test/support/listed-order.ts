// The order the timed known answers run in (vitest.config.ts's sequencer): their list's order, longest first
// (test/support/integration-tests.ts), so that the two running side by side end about together. Vitest's own order on
// a clean clone, with no results cache, is the largest file first: with the file times of the clean-clone CI5 run that
// starts the 2-minute screen after three shorter files and leaves one core idle for its last 37 s (160 s; the list's
// order: 142 s, the sum of the times over two cores being 141 s).
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { TIMED_INTEGRATION_TEST_FILES } from './integration-tests.ts'

/** What the order needs of a test file: its project and its path (relative to the root). */
export interface OrderedFile {
  project: string
  file: string
}

/**
 * `files` in their order, except that those of `project` listed in `listed` take, among the places they hold, the
 * list's order (unlisted ones keep theirs, after the listed). Every other file keeps its place.
 */
export function inListedOrder<T extends OrderedFile>(
  files: readonly T[],
  project: string,
  listed: readonly string[],
): T[] {
  const rank = (f: T) => {
    const i = listed.indexOf(f.file)
    return i < 0 ? listed.length : i
  }
  const places = files.flatMap((f, i) => (f.project === project ? [i] : []))
  const ordered = places.map((i) => files[i]!).sort((a, b) => rank(a) - rank(b))
  const out = [...files]
  places.forEach((place, k) => {
    out[place] = ordered[k]!
  })
  return out
}

/** Vitest's order (groups, projects, its cache or file sizes), then the timed project's files in their list's order. */
export class ListedOrderSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const root = this.ctx.config.root
    const named = sorted.map((spec) => ({ spec, project: spec.project.name, file: relative(root, spec.moduleId) }))
    return inListedOrder(named, 'integration-timed', TIMED_INTEGRATION_TEST_FILES).map((n) => n.spec)
  }
}

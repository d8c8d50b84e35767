import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { bendCheckSizes } from '../../src/capacity/bend.ts'
import { toStep } from '../../src/capacity/design.ts'
import { type FileWork, fileWorkOf, type PerFileRun, perFileChecks } from '../../src/capacity/per-file.ts'
import type { CapacityRun } from '../../src/capacity/runs.ts'
import type { StageProgress } from '../../src/results/schema/index.ts'
import { analyzeOneConfiguration } from './support/analyze-one.ts'

const ESM2 = 'ESM-2 Feature Extraction'
const SIX_M = 6_000_000
const HOUR_MS = 3_600_000

/** ESM-2's files in one run at `size` sequences: `perSequence` items a sequence, files of `perFile` (null: unknown). */
function files(size: number, perFile: number | null, setupMsPerFile = 32_000, perSequence = 1.6): FileWork {
  const items = Math.round(size * perSequence)
  const count = perFile === null ? 1 : Math.max(1, Math.ceil(items / perFile))
  return { files: count, items, setupMs: count * setupMsPerFile, itemsPerFile: perFile }
}

describe('a model built once per file', () => {
  test('every measured size made one file: 6 M makes 960, and the 959 builds the model lacks are the problem', () => {
    const runs = [1_000, 1_000, 4_000, 4_000].map((size) => ({ size, files: { [ESM2]: files(size, 10_000) } }))
    const [check] = perFileChecks(runs, SIX_M, 20 * HOUR_MS, 0.01)
    expect(check).toMatchObject({
      stage: ESM2,
      filesBySize: [
        { sequences: 1_000, files: 1 },
        { sequences: 4_000, files: 1 },
      ],
      setupMsPerFile: 32_000,
      productionFiles: 960,
      missingMs: 959 * 32_000,
      sequencesToMeasure: 18_750,
    })
    expect(check!.problem).toBe(
      `${ESM2} builds its model once per file of 10,000 items (32.0 s a file) and every measured size made 1 file: the projection holds that build as paid once, where 6,000,000 sequences make about 960 files and pay it 8.5 h more; measure a size that makes 3 files or more`,
    )
  })

  test('sizes that made different numbers of files show the steps across sizes: no problem', () => {
    const runs = [1_000, 20_000].map((size) => ({ size, files: { [ESM2]: files(size, 10_000) } }))
    const [check] = perFileChecks(runs, SIX_M, 20 * HOUR_MS, 0.01)
    expect(check!.filesBySize.map((f) => f.files)).toEqual([1, 4])
    expect(check).toMatchObject({ missingMs: null, problem: null })
  })

  test('no split line: how many files production makes is not known, and nothing is claimed', () => {
    const runs = [1_000, 4_000].map((size) => ({ size, files: { [ESM2]: files(size, null) } }))
    expect(perFileChecks(runs, SIX_M, 20 * HOUR_MS, 0.01)[0]).toMatchObject({
      productionFiles: null,
      missingMs: null,
      sequencesToMeasure: null,
      problem: null,
    })
  })

  test('a stage some run did not build per file is not checked', () => {
    const runs: PerFileRun[] = [
      { size: 1_000, files: { [ESM2]: files(1_000, 10_000) } },
      { size: 4_000, files: {} },
    ]
    expect(perFileChecks(runs, SIX_M, 20 * HOUR_MS, 0.01)).toEqual([])
  })

  test('property: the builds missing are (production files - measured files) x the build, a problem past the tolerance', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 50_000 }),
        fc.double({ min: 0.5, max: 4, noNaN: true }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.double({ min: 0.1, max: 100, noNaN: true }),
        (perFile, perSequence, setupMsPerFile, wallHours) => {
          // Two sizes inside one file.
          const small = Math.max(1, Math.floor(perFile / perSequence / 8))
          const large = Math.max(small + 1, Math.floor(perFile / perSequence / 2))
          const runs = [small, large].map((size) => ({
            size,
            files: { [ESM2]: files(size, perFile, setupMsPerFile, perSequence) },
          }))
          const measured = Math.max(...runs.map((r) => r.files[ESM2]!.files))
          fc.pre(runs.every((r) => r.files[ESM2]!.files === measured))
          const [check] = perFileChecks(runs, SIX_M, wallHours * HOUR_MS, 0.01)
          const itemsPerSequence = runs[1]!.files[ESM2]!.items / large
          const productionFiles = Math.ceil((itemsPerSequence * SIX_M) / perFile)
          expect(check!.productionFiles).toBe(productionFiles)
          expect(check!.missingMs).toBeCloseTo((productionFiles - measured) * setupMsPerFile, 6)
          expect(check!.problem !== null).toBe(check!.missingMs! > 0.01 * wallHours * HOUR_MS)
        },
      ),
    )
  })
})

describe("a run's files, from its file lines", () => {
  const series = (over: Partial<StageProgress>): StageProgress => ({
    stage: ESM2,
    source: 'file-lines',
    worker: null,
    total: 1_599,
    lines: 2,
    atMs: [1_000, 9_000],
    done: [0, 1_599],
    setupMs: 32_000,
    itemsPerFile: 10_000,
    ...over,
  })

  test('a main-process file series that built a model; not a worker, batch lines, or files that built none', () => {
    expect(fileWorkOf({ progress: [series({})] })).toEqual({
      [ESM2]: { files: 1, items: 1_599, setupMs: 32_000, itemsPerFile: 10_000 },
    })
    expect(fileWorkOf({ progress: [series({ worker: 0 })] })).toEqual({})
    expect(fileWorkOf({ progress: [series({ source: undefined })] })).toEqual({})
    expect(fileWorkOf({ progress: [series({ setupMs: undefined })] })).toEqual({})
    expect(fileWorkOf({ progress: [series({ itemsPerFile: undefined })] })[ESM2]!.itemsPerFile).toBeNull()
    expect(fileWorkOf({})).toEqual({})
  })
})

describe('the capacity model, told of the builds', () => {
  /** VirNucPro v1 at 1,000 and 4,000 sequences: a start-up with ESM-2's one build in it, and a clear per-sequence cost. */
  function run(size: number, noiseMs: number, msPerSequence = 4): CapacityRun {
    const values: Record<string, number> = {
      'outside stages': 10_000 + noiseMs,
      [ESM2]: 32_000 + msPerSequence * size + noiseMs,
    }
    values.wall = values['outside stages']! + values[ESM2]!
    return { label: `${size}`, size, values, startup: {}, steady: {}, files: { [ESM2]: files(size, 10_000) } }
  }

  test('a projection that holds one build where 6 M pays 960 is inconclusive below the target, and names a size of 3 files', () => {
    const runs = [1_000, 4_000].flatMap((n) => [0, 300, -300].map((e) => run(n, e)))
    const { stats, verdicts } = analyzeOneConfiguration(runs)
    const support = stats.configurations[0]!.support
    expect(support.supported).toBe(false)
    expect(support.problems).toEqual([
      expect.stringMatching(/^ESM-2 Feature Extraction builds its model once per file/),
    ])
    expect(support.lowerBound).toBe(true)
    // 3 files of 10,000 items at 1.6 items a sequence: 18,750 sequences (one record a sequence here), rounded up.
    expect(support.nextRecords).toBeGreaterThanOrEqual(18_750)
    // 6.7 h without the builds: under 10 h, so a lower bound decides nothing.
    const at6m = verdicts.find((v) => v.id === 'capacity/1/perf01/6000000')!
    expect(at6m.value).toBeCloseTo(6.68, 1)
    expect(at6m.verdict).toBe('inconclusive')
    expect(at6m.detail).toMatch(/builds its model once per file/)
    // The sequential design measures that size first, whatever the CI says, capped at what the input holds.
    expect(support.filesRecords).toBe(19_000)
    const view = { figures: stats.configurations[0]!, halfWidth: 0.01 }
    const [first] = bendCheckSizes(view, { held: 1, production: SIX_M, maxRecords: Number.POSITIVE_INFINITY })
    expect(first).toMatchObject({ kind: 'files', records: 19_000 })
    expect(toStep(first!, undefined).why).toMatch(/enough files for a model built once per file to show/)
    expect(bendCheckSizes(view, { held: 1, production: SIX_M, maxRecords: 12_000 })[0]).toMatchObject({
      kind: 'files',
      records: 12_000,
    })
    expect(bendCheckSizes(view, { held: 1, production: SIX_M, maxRecords: 4_000 }).map((c) => c.kind)).not.toContain(
      'files',
    )
  })

  test('a lower bound above the target decides it: FAIL, saying the builds it leaves out only add; other problems do not', () => {
    // 8 ms a sequence: 13.3 h at 6 M before the 959 builds it lacks.
    const runs = [1_000, 4_000].flatMap((n) => [0, 300, -300].map((e) => run(n, e, 8)))
    const { stats, verdicts } = analyzeOneConfiguration(runs)
    expect(stats.configurations[0]!.support).toMatchObject({ supported: false, lowerBound: true })
    const at6m = verdicts.find((v) => v.id === 'capacity/1/perf01/6000000')!
    expect(at6m.ci!.low).toBeGreaterThan(10)
    expect(at6m.verdict).toBe('fail')
    expect(at6m.detail).toMatch(/FAIL on a lower bound: the projection leaves out a cost per file, which only adds/)
    // A lower bound never passes: 45,000 sequences stay inconclusive.
    expect(verdicts.find((v) => v.id === 'capacity/1/perf01/45000')!.verdict).toBe('inconclusive')
    // With another problem beside it (a middle size 20 s off the line: not a line), no lower bound.
    const bent = [1_000, 2_500, 4_000].flatMap((n) =>
      [0, 300, -300].map((e) => run(n, e + (n === 2_500 ? 20_000 : 0), 8)),
    )
    const other = analyzeOneConfiguration(bent)
    const support = other.stats.configurations[0]!.support
    expect(support.problems).toContainEqual(expect.stringMatching(/not a line/))
    expect(support.problems).toContainEqual(expect.stringMatching(/builds its model once per file/))
    expect(support.lowerBound).toBe(false)
    expect(other.verdicts.find((v) => v.id === 'capacity/1/perf01/6000000')!.verdict).toBe('inconclusive')
  })
})

// Issue 56: the default grid depends on the GPU count screened. On one GPU VirNucPro's answer turns on its architecture
// (`--parallel`: v1.0 without, v2.0 with), which the grid could not hold before; on more GPUs a list of GPUs turns v2.0
// on anyway, and DNABERT-S's token budget is what moves.
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { DEFAULT_SWEEP_GRID, gridPoints, parseSweepGrid } from '../../src/engine/sweep-grid.ts'
import { parseHelpOptions } from '../../src/pipeline/help-options.ts'
import { defaultStudyGrid, studyLadder } from '../../src/study/default-grid.ts'
import { gridHelpProblem, pairDefaultsOfHelp } from '../../src/study/grid-help.ts'
import { sameAsDefault } from '../../src/study/setting-args.ts'

const help = (name: string) =>
  parseHelpOptions(readFileSync(new URL(`../fixtures/help/${name}`, import.meta.url), 'utf8'))
const virnucpro = help('virnucpro-predict.txt')

/** The settings the study measures of a grid on VirNucPro's default command line (no options added). */
const settingsOf = (gpuCount: number) =>
  gridPoints(defaultStudyGrid('virnucpro', gpuCount))
    .filter((p) => !sameAsDefault([], p.choices, pairDefaultsOfHelp(virnucpro)))
    .map((p) => p.label)

describe('defaultStudyGrid', () => {
  test('VirNucPro on 1 GPU: --parallel on and off, crossed with one option its v2.0 path reads on one GPU', () => {
    const grid = defaultStudyGrid('virnucpro', 1)
    expect(grid['--parallel']).toEqual([true, false])
    const others = Object.keys(grid).filter((k) => k !== '--parallel')
    expect(others.length).toBeLessThanOrEqual(1)
    // Not the options v2.0 leaves unread on one GPU.
    expect(others).not.toContain('--esm-batch-size')
    expect(others).not.toContain('--dataloader-workers')
    expect(settingsOf(1)).toEqual([
      '--parallel',
      '--parallel dnabert-batch-size=1024',
      'no --parallel dnabert-batch-size=1024',
    ])
  })

  test('VirNucPro on 2 or more GPUs: the DNABERT-S token budget, as before', () => {
    for (const k of [2, 4, 8])
      expect(defaultStudyGrid('virnucpro', k)).toEqual({ '--dnabert-batch-size': [2048, 8192, 32768] })
    expect(settingsOf(2)).toHaveLength(3)
  })

  test('the reference pipeline: the ESM-2 token budget on any GPU count', () => {
    for (const k of [1, 2, 8]) expect(defaultStudyGrid('reference', k)).toBe(DEFAULT_SWEEP_GRID)
  })

  test('every default grid is one a user could write, and one the target’s own help does not contradict', () => {
    for (const k of [1, 2]) {
      const grid = defaultStudyGrid('virnucpro', k)
      expect(parseSweepGrid(JSON.stringify(grid))).toEqual(grid)
      expect(gridHelpProblem(grid, virnucpro)).toBeNull()
    }
    expect(gridHelpProblem(defaultStudyGrid('reference', 1), help('refpipe-predict.txt'))).toBeNull()
  })

  test('a GPU count below 1 or not whole is refused', () => {
    expect(() => defaultStudyGrid('virnucpro', 0)).toThrow('a settings study screens on 1 or more GPUs, got 0')
    expect(() => defaultStudyGrid('virnucpro', 1.5)).toThrow(RangeError)
  })
})

describe('studyLadder', () => {
  test('a quarter of the smallest capacity size, then it, at least 8 records', () => {
    expect(studyLadder([1000, 4000])).toEqual([250, 1000])
    expect(studyLadder([8, 40])).toEqual([8])
  })
})

// Issue 56: the grid against the target's own --help, read before the screen's first run: entries the help
// contradicts are refused, and a switch pair's default state comes from the help where it states one.
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { parseHelpOptions } from '../../src/pipeline/help-options.ts'
import { gridHelpProblem, pairDefaultsOfHelp, unknownDefaults } from '../../src/study/grid-help.ts'

const fixture = (name: string) => readFileSync(new URL(`../fixtures/help/${name}`, import.meta.url), 'utf8')
const virnucpro = parseHelpOptions(fixture('virnucpro-predict.txt'))
const refpipe = parseHelpOptions(fixture('refpipe-predict.txt'))

describe("VirNucPro's switch pairs' defaults, from its click help", () => {
  test('--cuda-streams states its default (enabled); --persistent-models states none', () => {
    const defaults = pairDefaultsOfHelp(virnucpro)
    expect(defaults.get('--cuda-streams')).toBe(true)
    expect(defaults.has('--persistent-models')).toBe(false)
    // Its --verbose/--quiet is a pair of two names, not --x/--no-x: no grid key can name it.
    expect([...defaults.keys()]).toEqual(['--cuda-streams'])
  })

  test('a default written as the side itself, or off/false/disabled, is read as that side', () => {
    const help = (text: string) =>
      parseHelpOptions(`options:\n  --x / --no-x    the x switch ${text}\n  --y, --no-y     the y (default: off)\n`)
    expect(pairDefaultsOfHelp(help('[default: no-x]')).get('--x')).toBe(false)
    expect(pairDefaultsOfHelp(help('[default: x]')).get('--x')).toBe(true)
    expect(pairDefaultsOfHelp(help('(default: disabled)')).get('--x')).toBe(false)
    expect(pairDefaultsOfHelp(help('(default: sometimes)')).has('--x')).toBe(false)
    expect(pairDefaultsOfHelp(help('')).get('--y')).toBe(false)
  })

  test('a pair with no known default is said once, with why', () => {
    const defaults = pairDefaultsOfHelp(virnucpro)
    const grid = {
      '--persistent-models/--no-persistent-models': [true, false],
      '--cuda-streams/--no-cuda-streams': [true, false],
    }
    expect(unknownDefaults(grid, [], defaults, null)).toEqual([
      "--persistent-models/--no-persistent-models: the default's command line gives neither and the target's --help states no default: both sides are measured as settings, neither taken for the default",
    ])
    expect(unknownDefaults(grid, ['--no-persistent-models'], defaults, null)).toEqual([])
    expect(unknownDefaults(grid, [], new Map(), 'exit 1 (No module named torch)')).toHaveLength(2)
    expect(unknownDefaults(grid, [], new Map(), 'exit 1 (No module named torch)')[0]).toContain(
      "the target's --help was not read (exit 1 (No module named torch))",
    )
  })
})

describe('entries the help contradicts', () => {
  test("VirNucPro's default grids and flags as the help lists them pass", () => {
    expect(gridHelpProblem({ '--parallel': [true, false], '--dnabert-batch-size': [null, 1024] }, virnucpro)).toBeNull()
    expect(gridHelpProblem({ '--persistent-models/--no-persistent-models': [true, false] }, virnucpro)).toBeNull()
    expect(gridHelpProblem({ '--parallel': [true], '--esm-batch-size': [8192] }, refpipe)).toBeNull()
    // An option the help does not show is left to the run (the help reader may miss one).
    expect(gridHelpProblem({ '--not-an-option': [true] }, virnucpro)).toBeNull()
    expect(gridHelpProblem({ '--esm-batch-size': [true] }, [])).toBeNull()
  })

  test('true/false for an option with a value, a value for a flag, one side of a pair as a flag: one line each', () => {
    expect(gridHelpProblem({ '--esm-batch-size': [true, false] }, virnucpro)).toBe(
      `--esm-batch-size takes a value (the target's --help lists --esm-batch-size INTEGER): give values, e.g. "--esm-batch-size": [8192, 16384], not true/false`,
    )
    expect(gridHelpProblem({ '--parallel': [1, 0] }, virnucpro)).toBe(
      `--parallel takes no value (the target's --help lists --parallel): write "--parallel": [true, false]`,
    )
    expect(gridHelpProblem({ '--cuda-streams': [true, false] }, virnucpro)).toBe(
      `--cuda-streams is one side of a switch pair (the target's --help lists --cuda-streams / --no-cuda-streams): write "--cuda-streams/--no-cuda-streams": [true, false]`,
    )
    expect(gridHelpProblem({ '--no-cuda-streams': ['on'] }, virnucpro)).toBe(
      `--no-cuda-streams takes no value (the target's --help lists --cuda-streams / --no-cuda-streams): write "--cuda-streams/--no-cuda-streams": [true, false]`,
    )
    expect(gridHelpProblem({ '--parallel/--no-parallel': [true, false] }, virnucpro)).toBe(
      `--parallel/--no-parallel: the target's --help lists --parallel, without --no-parallel`,
    )
  })
})

import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  expandGrid,
  gridPoints,
  NOTHING_ADDED_LABEL,
  parseSweepGrid,
  SweepGridError,
} from '../../src/engine/sweep-grid.ts'

const option = fc.stringMatching(/^--[a-z][a-z-]{0,12}$/)
// Distinct as labels: 2048 and "2048" are one setting (refused below).
const values = fc.uniqueArray(fc.oneof(fc.integer({ min: 1, max: 1e6 }), fc.stringMatching(/^[a-z0-9]{1,6}$/)), {
  minLength: 1,
  maxLength: 4,
  selector: String,
})

describe('parseSweepGrid', () => {
  test('round-trips any valid grid written as JSON', () => {
    fc.assert(
      fc.property(fc.dictionary(option, values, { minKeys: 1, maxKeys: 3 }), (grid) => {
        expect(parseSweepGrid(JSON.stringify(grid))).toEqual(grid)
      }),
    )
  })

  test('names the option and the bad value', () => {
    expect(() => parseSweepGrid('{"--esm-batch-size": []}')).toThrow(/--esm-batch-size needs a non-empty list/)
    expect(() => parseSweepGrid('{"batch": [1]}')).toThrow(SweepGridError)
    expect(() => parseSweepGrid('{"-w": [{}]}')).toThrow(/-w has a bad value \{\}: an option with a value takes/)
    expect(() => parseSweepGrid('{"-w": [null]}')).toThrow(/-w lists only null \(the option not added\)/)
    expect(() => parseSweepGrid('nope', 'FILE')).toThrow(/^FILE: not JSON/)
  })

  // Issue 47: a value given twice passed the parser, and the study stopped mid-run on `RangeError: arm labels must be
  // unique`. One setting a label: refused before any run, naming the option and the value.
  test('refuses a value given twice, as a number and as text too, and two spellings of one option', () => {
    expect(() => parseSweepGrid('{"--dnabert-batch-size": [2048, 8192, 2048]}')).toThrow(
      /^VIRNUCPRO_BENCH_SWEEP: --dnabert-batch-size lists "2048" twice: give each value once$/,
    )
    expect(() => parseSweepGrid('{"-w": [2, "2"]}')).toThrow(/-w lists "2" twice/)
    expect(() => parseSweepGrid('{"-w": [2], "--w": [4]}')).toThrow(/'-w' and '--w' both set 'w': give one/)
    fc.assert(
      fc.property(option, values, fc.integer({ min: 0, max: 3 }), (o, v, i) => {
        const doubled = [...v, v[i % v.length]!]
        expect(() => parseSweepGrid(JSON.stringify({ [o]: doubled }))).toThrow(SweepGridError)
      }),
    )
  })
})

describe('expandGrid', () => {
  test('gives the product of the value counts, each with its options appended once', () => {
    fc.assert(
      fc.property(fc.dictionary(option, values, { minKeys: 1, maxKeys: 3 }), (grid) => {
        const configs = expandGrid({ label: 'base', gpus: [0], extraArgs: ['--x'] }, grid)
        const product = Object.values(grid).reduce((n, v) => n * v.length, 1)
        expect(configs).toHaveLength(product)
        for (const c of configs) expect(c.extraArgs).toHaveLength(1 + 2 * Object.keys(grid).length)
      }),
    )
  })
})

// Issue 56: the grid took option-value pairs only, so VirNucPro's architecture flag (--parallel) and its switch pairs
// (--persistent-models/--no-persistent-models) could not be screened.
describe('flags and switch pairs', () => {
  test('a flag is true (given) or false (left out); a pair true (--x) or false (--no-x); null leaves an option out', () => {
    const grid = parseSweepGrid(
      '{"--parallel": [true, false], "--persistent-models/--no-persistent-models": [true, false], "--dnabert-batch-size": [null, 1024]}',
    )
    const points = gridPoints(grid)
    expect(points.map((p) => [p.label, p.args])).toEqual([
      ['--parallel --persistent-models', ['--parallel', '--persistent-models']],
      [
        '--parallel --persistent-models dnabert-batch-size=1024',
        ['--parallel', '--persistent-models', '--dnabert-batch-size', '1024'],
      ],
      ['--parallel --no-persistent-models', ['--parallel', '--no-persistent-models']],
      [
        '--parallel --no-persistent-models dnabert-batch-size=1024',
        ['--parallel', '--no-persistent-models', '--dnabert-batch-size', '1024'],
      ],
      ['no --parallel --persistent-models', ['--persistent-models']],
      [
        'no --parallel --persistent-models dnabert-batch-size=1024',
        ['--persistent-models', '--dnabert-batch-size', '1024'],
      ],
      ['no --parallel --no-persistent-models', ['--no-persistent-models']],
      [
        'no --parallel --no-persistent-models dnabert-batch-size=1024',
        ['--no-persistent-models', '--dnabert-batch-size', '1024'],
      ],
    ])
    expect(gridPoints({ '-k': [true], '-w': [null, 2] }).map((p) => p.label)).toEqual(['-k', '-k w=2'])
    expect(gridPoints({ '-w': [null, 2] }).map((p) => p.label)).toEqual([NOTHING_ADDED_LABEL, 'w=2'])
  })

  test('refuses each bad entry in one line naming the key and what is wrong', () => {
    const refusal = (grid: unknown) => {
      try {
        parseSweepGrid(JSON.stringify(grid))
      } catch (error) {
        expect(error).toBeInstanceOf(SweepGridError)
        return (error as Error).message
      }
      throw new Error(`accepted ${JSON.stringify(grid)}`)
    }
    const cases: [unknown, string][] = [
      [
        { '--esm-batch-size': [8192, true] },
        'VIRNUCPRO_BENCH_SWEEP: --esm-batch-size mixes true/false with 8192: a flag takes true (given) and false (not given); an option with a value takes numbers or text, and null for the option not added',
      ],
      [
        { '--parallel': [true, null] },
        'VIRNUCPRO_BENCH_SWEEP: --parallel mixes true/false with null: a flag takes true (given) and false (not given); an option with a value takes numbers or text, and null for the option not added',
      ],
      [
        { '--persistent-models/--persistent': [true, false] },
        `VIRNUCPRO_BENCH_SWEEP: '--persistent-models/--persistent' is not a switch pair: write it as --x/--no-x, e.g. "--persistent-models/--no-persistent-models": [true, false]`,
      ],
      [
        { '--persistent-models/--no-persistent-model': [true] },
        `VIRNUCPRO_BENCH_SWEEP: '--persistent-models/--no-persistent-model' is not a switch pair: write it as --x/--no-x, e.g. "--persistent-models/--no-persistent-models": [true, false]`,
      ],
      [
        { '--cuda-streams/--no-cuda-streams': [true, 1] },
        'VIRNUCPRO_BENCH_SWEEP: --cuda-streams/--no-cuda-streams has 1: a switch pair takes true (--cuda-streams) and false (--no-cuda-streams)',
      ],
      [
        { '--cuda-streams/--no-cuda-streams': [] },
        'VIRNUCPRO_BENCH_SWEEP: --cuda-streams/--no-cuda-streams needs a non-empty list of values ([true, false]), got []',
      ],
      [{ '--parallel': [true, true] }, 'VIRNUCPRO_BENCH_SWEEP: --parallel lists "true" twice: give each value once'],
      [{ '-w': [null, 2, null] }, 'VIRNUCPRO_BENCH_SWEEP: -w lists null twice: give each value once'],
      [
        { '--cuda-streams/--no-cuda-streams': [true], '--no-cuda-streams': [true] },
        "VIRNUCPRO_BENCH_SWEEP: '--cuda-streams/--no-cuda-streams' and '--no-cuda-streams' both set 'no-cuda-streams': give one",
      ],
      [
        { '--parallel': [true], '--parallel/--no-parallel': [false] },
        "VIRNUCPRO_BENCH_SWEEP: '--parallel' and '--parallel/--no-parallel' both set 'parallel': give one",
      ],
    ]
    for (const [grid, message] of cases) expect(refusal(grid), JSON.stringify(grid)).toBe(message)
  })

  test('property: every flag and pair grid parses, and its points are the product, labels unique, args as chosen', () => {
    const name = fc.stringMatching(/^[a-z][a-z-]{0,10}$/)
    const entry = fc.oneof(
      name.map((n) => [`--${n}`, [true, false]] as const),
      name.map((n) => [`--${n}`, [true]] as const),
      name.map((n) => [`--${n}/--no-${n}`, [false, true]] as const),
      name.map((n) => [`--${n}`, [null, 7, 'x']] as const),
    )
    const grids = fc
      .uniqueArray(entry, { minLength: 1, maxLength: 3, selector: ([k]) => k.split('/')[0]!.replace(/^-+/, '') })
      // Two spellings of one option (--a beside --no-a's pair) are refused (above): not drawn here.
      .filter((es) => {
        const names = es.flatMap(([k]) => k.split('/').map((s) => s.replace(/^-+/, '')))
        return new Set(names).size === names.length
      })
      .map((es) => Object.fromEntries(es.map(([k, v]) => [k, [...v]])))
    fc.assert(
      fc.property(grids, (grid) => {
        expect(parseSweepGrid(JSON.stringify(grid))).toEqual(grid)
        const points = gridPoints(grid)
        expect(points).toHaveLength(Object.values(grid).reduce((n, v) => n * v.length, 1))
        expect(new Set(points.map((p) => p.label)).size).toBe(points.length)
        for (const p of points)
          for (const { entry, value } of p.choices) {
            if (entry.kind === 'pair') expect(p.args).toContain(value ? entry.on : entry.off)
            else if (entry.kind === 'flag') expect(p.args.includes(entry.option)).toBe(value)
            else expect(p.args.includes(entry.option)).toBe(value !== null)
          }
      }),
    )
  })
})

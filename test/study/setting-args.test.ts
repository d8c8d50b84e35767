import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { gridPoints, type SweepGrid } from '../../src/engine/sweep-grid.ts'
import { argsWithSetting, flagState, flagsTakenAway, optionValue, sameAsDefault } from '../../src/study/setting-args.ts'

/** The one grid point of a grid of single values. */
const choices = (grid: SweepGrid) => gridPoints(grid)[0]!.choices

describe('setting arguments against the default', () => {
  test("an option's value is its last occurrence, in either spelling", () => {
    expect(optionValue(['--esm-batch-size', '512', '-w', '0', '--esm-batch-size=1024'], '--esm-batch-size')).toBe(
      '1024',
    )
    expect(optionValue(['--esm-batch-size'], '--esm-batch-size')).toBeUndefined()
    expect(optionValue(['--esm-batch-size-x', '1'], '--esm-batch-size')).toBeUndefined()
  })

  test('a grid point repeating the default options is the default; any other value or a new option is not', () => {
    const base = ['--model-scale', 'tiny', '--esm-batch-size', '512']
    expect(sameAsDefault(base, choices({ '--esm-batch-size': [512] }))).toBe(true)
    expect(sameAsDefault(base, choices({ '--esm-batch-size': [512], '--model-scale': ['tiny'] }))).toBe(true)
    expect(sameAsDefault(base, choices({ '--esm-batch-size': [8192] }))).toBe(false)
    // Without the target's defaults a value the default command line does not state is a setting of its own.
    expect(sameAsDefault(base, choices({ '--seed': [0] }))).toBe(false)
    // null adds nothing: the default's own value, whatever it is.
    expect(sameAsDefault(base, gridPoints({ '--esm-batch-size': [null, 8192] })[0]!.choices)).toBe(true)
  })

  test('property: appending a setting to the default and reading it back gives its values', () => {
    const option = fc.stringMatching(/^--[a-z][a-z-]{0,10}$/)
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z0-9]{1,4}$/)),
        fc.dictionary(option, fc.stringMatching(/^[a-z0-9]{1,6}$/), { minKeys: 1 }),
        (base, setting) => {
          const grid = Object.fromEntries(Object.entries(setting).map(([k, v]) => [k, [v]]))
          const point = gridPoints(grid)[0]!
          expect(sameAsDefault([...base, ...point.args], point.choices)).toBe(true)
        },
      ),
    )
  })
})

// Issue 56: sameAsDefault threw on anything but option-value pairs, so a flag could not be screened at all.
describe('flags and switch pairs against the default', () => {
  test("a flag's state is its presence; a pair's its last side; the argument after a flag is not read", () => {
    expect(flagState(['--parallel', '--gpus', '0'], '--parallel')).toBe(true)
    expect(flagState(['--gpus', '0'], '--parallel')).toBeUndefined()
    const pair = ['--persistent-models', '--no-persistent-models'] as const
    expect(flagState(['--persistent-models', '-w', '2', '--no-persistent-models'], ...pair)).toBe(false)
    expect(flagState(['--no-persistent-models', '--persistent-models'], ...pair)).toBe(true)
    expect(flagState(['--persistent-models-x'], ...pair)).toBeUndefined()
  })

  test('a flag given by the default is the default when true; left out by it, when false', () => {
    const withParallel = ['--gpus', '0', '--parallel']
    expect(sameAsDefault(withParallel, choices({ '--parallel': [true] }))).toBe(true)
    expect(sameAsDefault(['--gpus', '0'], choices({ '--parallel': [true] }))).toBe(false)
    expect(sameAsDefault(['--gpus', '0'], choices({ '--parallel': [false] }))).toBe(true)
    const [on, off] = gridPoints({ '--parallel': [true, false], '-w': [4] })
    expect([on!.label, sameAsDefault(['-w', '4'], on!.choices)]).toEqual(['--parallel w=4', false])
    expect([off!.label, sameAsDefault(['-w', '4'], off!.choices)]).toEqual(['no --parallel w=4', true])
  })

  test("a pair the default leaves out is at the target's default from its help; unknown, both sides are settings", () => {
    const grid = { '--cuda-streams/--no-cuda-streams': [true, false] }
    const [on, off] = gridPoints(grid).map((p) => p.choices)
    const known = new Map([['--cuda-streams', true]])
    expect([sameAsDefault([], on!, known), sameAsDefault([], off!, known)]).toEqual([true, false])
    // The default's command line wins over the help's default.
    expect(sameAsDefault(['--no-cuda-streams'], off!, known)).toBe(true)
    expect(sameAsDefault(['--no-cuda-streams'], on!, known)).toBe(false)
    // Not stated in the help: neither side is taken for the default.
    expect([sameAsDefault([], on!), sameAsDefault([], off!)]).toEqual([false, false])
    expect(sameAsDefault(['--cuda-streams'], on!)).toBe(true)
  })

  test('issue 56: a flag the default gives and a point leaves out is taken away, every occurrence of it', () => {
    const [on, off] = gridPoints({ '--parallel': [true, false] })
    expect(flagsTakenAway(['--parallel'], on!.choices)).toEqual([])
    expect(flagsTakenAway(['--parallel'], off!.choices)).toEqual(['--parallel'])
    expect(flagsTakenAway([], off!.choices)).toEqual([])
    expect(
      argsWithSetting(['--model-scale', 'tiny', '--parallel', '--parallel'], {
        optionArgs: [],
        takenAway: ['--parallel'],
      }),
    ).toEqual(['--model-scale', 'tiny'])
    expect(argsWithSetting(['--parallel'], { optionArgs: ['--dnabert-batch-size', '1024'] })).toEqual([
      '--parallel',
      '--dnabert-batch-size',
      '1024',
    ])
  })
})

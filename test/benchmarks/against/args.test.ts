// `npm run bench -- [--against REV] [--save-baseline] ...` (benchmarks/support/against/args.ts).
import { describe, expect, test } from 'vitest'
import { parseBenchArgs } from '../../../benchmarks/support/against/args.ts'

describe('parseBenchArgs', () => {
  test('no options: everything goes to vitest bench as given', () => {
    expect(parseBenchArgs(['benchmarks/measure.bench.ts', '-t', 'bootstrap'])).toEqual({
      against: null,
      saveBaseline: false,
      vitestArgs: ['benchmarks/measure.bench.ts', '-t', 'bootstrap'],
    })
  })

  test('--against REV and --against=REV name the revision; --save-baseline asks for a new baseline', () => {
    expect(parseBenchArgs(['--against', 'main', '-t', 'x'])).toEqual({
      against: 'main',
      saveBaseline: false,
      vitestArgs: ['-t', 'x'],
    })
    expect(parseBenchArgs(['--against=HEAD~3']).against).toBe('HEAD~3')
    expect(parseBenchArgs(['--save-baseline'])).toEqual({ against: null, saveBaseline: true, vitestArgs: [] })
  })

  test('a missing or doubled revision, or both options at once, is refused naming the option', () => {
    expect(() => parseBenchArgs(['--against'])).toThrow('--against needs a revision')
    expect(() => parseBenchArgs(['--against', '--save-baseline'])).toThrow('--against needs a revision')
    expect(() => parseBenchArgs(['--against='])).toThrow('--against needs a revision')
    expect(() => parseBenchArgs(['--against', 'a', '--against', 'b'])).toThrow('--against given twice (a, b)')
    expect(() => parseBenchArgs(['--against', 'main', '--save-baseline'])).toThrow(
      '--save-baseline with --against: a run judged against another revision saves no baseline',
    )
  })
})

import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { optionValue, sameAsDefault } from '../../src/study/setting-args.ts'

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
    expect(sameAsDefault(base, ['--esm-batch-size', '512'])).toBe(true)
    expect(sameAsDefault(base, ['--esm-batch-size', '512', '--model-scale', 'tiny'])).toBe(true)
    expect(sameAsDefault(base, ['--esm-batch-size', '8192'])).toBe(false)
    // Without the target's defaults a value the default command line does not state is a setting of its own.
    expect(sameAsDefault(base, ['--seed', '0'])).toBe(false)
    expect(() => sameAsDefault(base, ['--seed'])).toThrow('not in pairs')
  })

  test('property: appending a setting to the default and reading it back gives its values', () => {
    const option = fc.stringMatching(/^--[a-z][a-z-]{0,10}$/)
    fc.assert(
      fc.property(fc.array(fc.string()), fc.dictionary(option, fc.string({ minLength: 1 })), (base, setting) => {
        const args = Object.entries(setting).flat()
        expect(sameAsDefault([...base, ...args], args)).toBe(true)
      }),
    )
  })
})

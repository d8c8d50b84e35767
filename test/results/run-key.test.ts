import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { keyDifferences } from '../../src/results/run-key.ts'

const leaf = fc.oneof(fc.string({ maxLength: 60 }), fc.integer(), fc.boolean(), fc.constant(null))
const key = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !k.includes('.')),
  fc.oneof(
    leaf,
    fc.dictionary(
      fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !k.includes('.')),
      leaf,
    ),
  ),
  { minKeys: 1 },
)

describe('keyDifferences', () => {
  test('equal keys differ in nothing, whatever the order of their fields', () => {
    fc.assert(
      fc.property(key, (k) => {
        const reordered = Object.fromEntries(Object.entries(k).reverse())
        expect(keyDifferences(k, structuredClone(reordered))).toEqual([])
      }),
    )
  })

  test('one changed field is named by its path, with what it was and is', () => {
    fc.assert(
      fc.property(key, fc.string({ minLength: 1, maxLength: 8 }), (k, changed) => {
        const [name] = Object.keys(k)
        const current = { ...k, [name!]: { nested: `${changed}!` } }
        const differences = keyDifferences(k, current)
        expect(differences.length).toBeGreaterThan(0)
        for (const d of differences) expect(d.startsWith(`${name}`)).toBe(true)
      }),
    )
  })

  test('the parts users change read as they are: the driver, a GPU, the input', () => {
    const stored = { driver: '580.1', gpus: ['H100 GPU-a'], arm: { inputSha256: 'a'.repeat(64) } }
    expect(keyDifferences(stored, { ...stored, driver: '580.2' })).toEqual(['driver (was 580.1, now 580.2)'])
    expect(keyDifferences(stored, { ...stored, gpus: ['H100 GPU-b'] })).toEqual([
      'gpus (was ["H100 GPU-a"], now ["H100 GPU-b"])',
    ])
    expect(keyDifferences(stored, { ...stored, arm: { inputSha256: 'b'.repeat(64) } })).toEqual([
      `arm.inputSha256 (was ${'a'.repeat(37)}..., now ${'b'.repeat(37)}...)`,
    ])
    expect(keyDifferences({ a: 1 }, { a: 1, b: 2 })).toEqual(['b (was absent, now 2)'])
  })

  test('a field named like an inherited one (toString) is compared as a field, not as what objects inherit', () => {
    expect(keyDifferences({ a: { toString: 0 } }, { a: { nested: 'x' } })).toEqual([
      'a.nested (was absent, now x)',
      'a.toString (was 0, now absent)',
    ])
  })
})

import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { digitsUpTo, estimateFixtureBytes, formatBytes, freeBytes } from '../../src/input/fixture-size.ts'
import { generateFixture } from '../../src/input/generate.ts'
import { resolveParams } from '../../src/input/presets.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const root = tempDirUntilFileEnd('fixture-size-')

describe('estimateFixtureBytes', () => {
  test('digitsUpTo(n) is the digits of 1..n counted one by one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000 }), (n) => {
        let digits = 0
        for (let i = 1; i <= n; i++) digits += String(i).length
        expect(digitsUpTo(n)).toBe(digits)
      }),
      { numRuns: 50 },
    )
  })

  test.for([
    ['MEDIUM', { records: 3000, lineWidth: 60 }],
    ['TYPICAL', { records: 5000, lineWidth: 0 }],
    ['SMALL', { records: 200, files: 3, lineWidth: 70 }],
  ] as const)('%s %j: within 3% of what generating writes', async ([preset, overrides]) => {
    const params = resolveParams(preset, overrides)
    const dir = join(root, `${preset}-${overrides.records}`)
    const manifest = await generateFixture(params, dir)
    const written = manifest.totals.bytes + (await stat(join(dir, 'manifest.json'))).size
    expect(Math.abs(estimateFixtureBytes(params) - written) / written).toBeLessThan(0.03)
  })

  test('a trillion records is hundreds of terabytes, which no test machine has free', async () => {
    const bytes = estimateFixtureBytes(resolveParams('TINY', { records: 1_000_000_000_000 }))
    expect(bytes).toBeGreaterThan(3e14)
    expect(await freeBytes(join(root, 'not', 'yet'))).toBeLessThan(bytes)
  })
})

test('formatBytes: three significant digits, SI units', () => {
  expect(formatBytes(512)).toBe('512 bytes')
  expect(formatBytes(7_710)).toBe('7.71 kB')
  expect(formatBytes(373e12)).toBe('373 TB')
})

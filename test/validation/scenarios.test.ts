import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { faultConfig, SCENARIOS, scenario } from '../../src/validation/scenarios.ts'

describe('scenarios', () => {
  test('faultConfig appends the options and one --inject per fault, keeping the base', () => {
    const base = { label: '1 GPU', gpus: [0], extraArgs: ['--model-scale', 'full'] }
    const c = faultConfig(base, scenario('cpu-stall'))
    expect(c.label).toBe('1 GPU, cpu-stall')
    expect(c.extraArgs).toEqual(['--model-scale', 'full', '--esm-batch-size', '16384', '--inject', 'cpu-stall-ms=2000'])
    expect(faultConfig(base, scenario('clean')).extraArgs).toEqual(base.extraArgs)
  })

  test('an unknown scenario is refused with the known ones', () => {
    expect(() => scenario('nope')).toThrow(/unknown scenario 'nope' \(known: clean, /)
  })

  test('docs/VALIDATION.md has a row for every scenario', () => {
    const doc = readFileSync(new URL('../../docs/VALIDATION.md', import.meta.url), 'utf8')
    // One claim a row: a scenario's rows start with its id, then what of it is checked (`clean`: no fault flag ...).
    for (const s of SCENARIOS) expect(doc, s.id).toMatch(new RegExp(`^\\| \`${s.id}\`[ :|]`, 'm'))
  })
})

import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { seriesRecordId } from '../../src/history/series-id.ts'

describe("a campaign task's record in its series", () => {
  test("the record's own host's task suffix goes; another host's, or none, stays", () => {
    expect(seriesRecordId('stage-1-GPU.gpu07-t3', 'gpu07.cluster.example.org')).toBe('stage-1-GPU')
    expect(seriesRecordId('stage-1-GPU.gpu07-t3', 'gpu08')).toBe('stage-1-GPU.gpu07-t3')
    expect(seriesRecordId('stage-1-GPU', 'gpu07')).toBe('stage-1-GPU')
    expect(seriesRecordId('stage-1-GPU.gpu07-tx', 'gpu07')).toBe('stage-1-GPU.gpu07-tx')
    expect(seriesRecordId('capacity-1-GPU.vm-t0', 'vm')).toBe('capacity-1-GPU')
  })

  test('every task index of one host maps to one series; the suite id comes back whole (property)', () => {
    const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/)
    fc.assert(
      fc.property(label, label, fc.nat(9999), fc.nat(9999), (id, host, a, b) => {
        expect(seriesRecordId(`${id}.${host}-t${a}`, `${host}.example`)).toBe(id)
        expect(seriesRecordId(`${id}.${host}-t${a}`, host)).toBe(seriesRecordId(`${id}.${host}-t${b}`, host))
        expect(seriesRecordId(id, host)).toBe(id)
      }),
    )
  })
})

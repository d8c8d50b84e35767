// Issue 44: the capacity known answers' records were named as configurations (`capacity, 1 GPU at 1,000 / 4,000
// seqs`, `capacity, 1 GPU, prework at ...`), and the direct check's measurement filed its runs under a record it never
// wrote, which read back as a second, PROVISIONAL answer of the same name.
import { describe, expect, test } from 'vitest'
import { recordLooks } from '../../src/capacity/analysis-options.ts'
import { isKnownAnswer } from '../../src/capacity/known-answer.ts'
import { capacityPurpose } from '../../src/capacity/purpose.ts'
import type { ResolvedInput } from '../../src/input/resolver.ts'
import type { ResultRecord } from '../../src/results/schema/index.ts'
import { besideNames, directCheckName, plantedAloneName } from '../../src/validation/capacity-names.ts'

const inputs = [1_000, 4_000].map((records) => ({ records }) as ResolvedInput)
const oneGpu = [{ label: '1 GPU', gpus: [0] }]

describe('the capacity known answers are named so', () => {
  test("each record's name says it is a known answer, and what it checks, beside what it measured", () => {
    const direct = capacityPurpose(oneGpu, inputs, directCheckName(1, 20_000))
    expect(direct).toEqual({
      kind: 'capacity',
      id: 'known-answer-direct check at 20,000 records, 1 GPU',
      name: 'known answer: direct check at 20,000 records, 1 GPU (1 GPU at 1,000 / 4,000 seqs)',
    })
    const prework = capacityPurpose([{ label: '1 GPU, prework', gpus: [0] }], inputs, plantedAloneName('prework'))
    expect(prework.name).toBe('known answer: prework (1 GPU, prework at 1,000 / 4,000 seqs)')
    const { clean, planted } = besideNames('fixed cost')
    expect(capacityPurpose(oneGpu, inputs, clean).name).toBe(
      'known answer: fixed cost, clean arm (1 GPU at 1,000 / 4,000 seqs)',
    )
    expect(planted.title).toBe('known answer: fixed cost, planted arm')
    for (const name of [direct.name, prework.name]) expect(isKnownAnswer(name)).toBe(true)
  })

  test("a configuration's own record keeps its name (a suffix only tells two apart)", () => {
    expect(capacityPurpose(oneGpu, inputs, ', 1 GPU direct check')).toEqual({
      kind: 'capacity',
      id: 'capacity-1 GPU, 1 GPU direct check',
      name: 'capacity, 1 GPU at 1,000 / 4,000 seqs',
    })
    expect(isKnownAnswer('capacity, 1 GPU at 1,000 / 4,000 seqs')).toBe(false)
  })

  test("a measurement of both arms files its runs under a record it writes (the planted arm's), named for both", () => {
    const names = besideNames('stall')
    expect(names.measurement.id).toBe(names.planted.id)
    expect(names.clean.id).not.toBe(names.planted.id)
    expect(names.measurement.title).toBe('known answer: stall, clean and planted arms')
    // Two GPU counts' direct checks are two records.
    expect(directCheckName(1, 20_000).id).not.toBe(directCheckName(2, 20_000).id)
  })

  test('a known answer, partial or written, is judged once: it never runs a design', () => {
    const record = (name: string, state: ResultRecord['state']) => ({ name, state, stats: {} }) as ResultRecord
    expect(recordLooks(record('known answer: prework (1 GPU, prework at 8 / 16 seqs)', 'partial'))).toBe(1)
    expect(recordLooks(record('capacity, 1 GPU at 8 / 16 seqs', 'partial'))).toBe(6)
  })
})

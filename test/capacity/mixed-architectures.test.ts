// Issue 56: k GPUs are compared with 1 within one architecture. A measurement that set v2.0 on 2 GPUs against v1.0 on
// one (every VirNucPro answer before issue 56: `--gpus 0,1` turns v2.0 on, `--gpus 0` runs v1.0) says which is which
// wherever it compares them; one architecture throughout reads as before.
import { describe, expect, test } from 'vitest'
import { analyzeCapacity, PLAIN_ANALYSIS } from '../../src/capacity/analyze.ts'
import { capacityAnswer } from '../../src/capacity/answer.ts'
import { answerView } from '../../src/capacity/answer-table.ts'
import { DEFAULT_THRESHOLDS } from '../../src/config/thresholds.ts'
import { createRandomSource } from '../../src/measure/rng.ts'
import type { Architecture } from '../../src/pipeline/architecture-line.ts'
import { LINEAR, plannedArms, syntheticInput, V2_TWO_GPUS } from './support/synthetic-capacity.ts'

const SIZES = [1_000, 4_000, 10_000]

function answerOf(one: Architecture, two: Architecture) {
  const measured = plannedArms(
    [
      { label: `1 GPU, ${one}`, gpuCount: 1, target: LINEAR },
      { label: `2 GPUs, ${two}`, gpuCount: 2, target: V2_TWO_GPUS },
    ],
    SIZES,
    3,
    createRandomSource(`mixed-${one}-${two}`),
  )
  measured[0]!.config.architecture = one
  measured[1]!.config.architecture = two
  const inputs = SIZES.map((r) => syntheticInput(r, 20_000))
  const { stats, verdicts } = analyzeCapacity(measured, inputs, DEFAULT_THRESHOLDS, [], PLAIN_ANALYSIS)
  return capacityAnswer(stats, verdicts, { final: true, keptRuns: 18, plannedRuns: 18 })
}

describe('k GPUs against 1, like against like', () => {
  test('2 GPUs of v2.0 against 1 of v1.0: the sentence and the table say which is which, mixed', () => {
    const a = answerOf('v1.0', 'v2.0')
    expect(a.gpus.map((g) => g.architecture)).toEqual(['v1.0', 'v2.0'])
    expect(a.comparisons[0]!.mixed).toBe('2 GPUs, v2.0 against 1 GPU, v1.0')
    expect(a.sentence).toContain('2 GPUs, v2.0 against 1 GPU, v1.0 (mixed architectures)')
    const table = answerView(a).tables.find((t) => t.id === 'speedup')!
    expect(table.rows[0]![0]).toBe('2 GPUs, v2.0 against 1 GPU, v1.0')
    expect(table.notes.join(' ')).toMatch(/mixed architectures: .* not the like-against-like speedup/)
  })

  test('v2.0 on both: no word of mixing', () => {
    const a = answerOf('v2.0', 'v2.0')
    expect(a.comparisons[0]!.mixed).toBeNull()
    expect(a.sentence).toMatch(/2 GPUs against 1 (pays|does not pay|may or may not pay|pays just about)/)
    expect(a.sentence).not.toContain('mixed')
  })
})

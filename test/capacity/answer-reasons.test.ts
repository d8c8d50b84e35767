// Issue 44: `FINAL: 6 M sequences take 5.8 h [5.5, 6.1] on 1 GPU (undecided against 10 h)` said no why, though its
// decision held one (a PASS needs a third size). Every undecided verdict now says why and what would decide it.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { analyzeCapacity, PLAIN_ANALYSIS } from '../../src/capacity/analyze.ts'
import { capacityAnswer } from '../../src/capacity/answer.ts'
import { answerLines } from '../../src/capacity/answer-line.ts'
import { openFromDecisions, PREDATES_REASONS, reasonLine } from '../../src/capacity/answer-reasons.ts'
import { type Decision, decideCapacity } from '../../src/capacity/decisions.ts'
import type { ConfigCapacity } from '../../src/capacity/model.ts'
import { VIRNUCPRO_TARGETS } from '../../src/config/capacity-targets.ts'
import { DEFAULT_THRESHOLDS } from '../../src/config/thresholds.ts'
import { verdict } from '../../src/engine/verdict.ts'
import { createRandomSource } from '../../src/measure/rng.ts'
import { PER_FILE, plannedMeasurements, syntheticInput } from './support/synthetic-capacity.ts'

const T = DEFAULT_THRESHOLDS
const PRODUCTION = T.perf01.productionSequences
const OPTIONS = { margin: 0.05, batching: VIRNUCPRO_TARGETS.batching }
const REASON = /\bUNDECIDED: .+; to decide it: \S/

/** One GPU's figures as the decisions read them, at `sizes` sizes. */
const config = (sizes: number, over: Partial<ConfigCapacity> = {}) =>
  ({
    gpuCount: 1,
    label: '1 GPU',
    sizes: Array.from({ length: sizes }, (_, i) => ({ records: (i + 1) * 1000, sequences: (i + 1) * 1000, runs: 2 })),
    support: { supported: true, problems: [], nextRecords: null, reproduced: [], lineFit: { pValue: 0.5 } },
    stages: [],
    ...over,
  }) as unknown as ConfigCapacity

/** PERF-01 on 1 GPU at 6 M: `ci` null for a verdict without an interval, `value` null for one without a figure. */
const at6m = (value: number | null, ci: [number, number] | null) =>
  verdict({
    id: `capacity/1/perf01/${PRODUCTION}`,
    title: 't',
    verdict: 'inconclusive',
    value,
    unit: 'h',
    ci: ci && { low: ci[0], high: ci[1], level: 0.95 },
    detail: 'd',
  })
const decided6m = (c: ConfigCapacity, v: ReturnType<typeof at6m>, o = {}) =>
  decideCapacity([c], [], [v], T, { ...OPTIONS, ...o }).find((d) => d.id === `capacity/1/perf01/${PRODUCTION}`)!

describe('what would decide an undecided verdict, from why it is undecided', () => {
  test('a PASS on two sizes waits for the third: the runs that give it', () => {
    const d = decided6m(config(2), at6m(5.8, [5.5, 6.1]))
    expect(d.state).toBe('undecided')
    expect(d.why).toContain(
      'would read PASS, but a PASS needs 1 GPU: three sizes for the lack-of-fit test (2 measured)',
    )
    expect(d.decideBy).toBe('runs that give 1 GPU three sizes for the lack-of-fit test (2 measured)')
  })

  test('an interval across the threshold: narrower, by more runs or a larger size', () => {
    expect(decided6m(config(3), at6m(9, [6, 12])).decideBy).toMatch(/^more runs at the largest size, or a larger size/)
  })

  test('no interval, no figure, runs that cannot support a projection: each its own', () => {
    expect(decided6m(config(3), at6m(9, null)).decideBy).toBe('two or more completed runs at each of two sizes')
    expect(decided6m(config(3), at6m(null, null)).decideBy).toBe('runs that give it a figure')
    const unsupported = config(3, {
      support: { supported: false, problems: ['a part is negative'], nextRecords: 8000, reproduced: [] },
    } as never)
    expect(decided6m(unsupported, at6m(9, [8, 9.5])).decideBy).toBe('1 GPU: measure 8,000 records next')
  })

  test("a missed held-out check: what would settle the miss, never the design's costed runs (the model missed)", () => {
    const miss =
      'the size model does not hold ...; what would settle it: fit sizes up to 45,000 records and hold out a larger one'
    const d = decided6m(config(3), at6m(5.8, [5.5, 6.1]), {
      missed: new Map([[1, miss]]),
      needs: new Map([[`capacity/1/perf01/${PRODUCTION}`, 'about 1 more run']]),
    })
    expect(d).toMatchObject({ state: 'undecided', needs: null })
    expect(d.decideBy).toBe('fit sizes up to 45,000 records and hold out a larger one')
    const [open] = openFromDecisions([d], 'decided', new Set([1]))
    // Said once: as what would decide it.
    expect(open).toMatchObject({ why: 'the size model does not hold ...', toDecide: d.decideBy })
  })
})

describe('openFromDecisions', () => {
  const undecided = (over: Partial<Decision>): Decision =>
    ({
      id: 'q',
      question: 'PERF-01, 1 GPU, 6,000,000 sequences',
      from: [1],
      state: 'undecided',
      why: 'w',
      needs: null,
      ...over,
    }) as Decision

  test("the design's costed step first, else the decision's own, else what an old record can be told; decided ones left out", () => {
    const open = openFromDecisions(
      [
        undecided({ id: 'a', needs: 'about 1 more run', decideBy: 'more runs' }),
        undecided({ id: 'b', decideBy: 'more runs' }),
        undecided({ id: 'c' }),
        { ...undecided({ id: 'd' }), state: 'pass' },
      ],
      null,
      new Set(),
    )
    expect(open.map((o) => [o.id, o.toDecide])).toEqual([
      ['a', 'about 1 more run'],
      ['b', 'more runs'],
      ['c', PREDATES_REASONS],
    ])
  })

  test('a design that stopped short says so in why (its budget spent), except where the held-out check missed', () => {
    const [spent] = openFromDecisions([undecided({})], 'budget', new Set())
    expect(spent!.why).toBe('w; the design stopped with its GPU-minute budget spent')
    const [missed] = openFromDecisions([undecided({})], 'budget', new Set([1]))
    expect(missed!.why).toBe('w')
    const [decided] = openFromDecisions([undecided({})], 'decided', new Set())
    expect(decided!.why).toBe('w')
  })
})

describe('reasonLine', () => {
  const oneLine = fc.string({ minLength: 1 }).map((s) => s.replace(/[\r\n]/g, ' ').trim() || 'x')

  test('property: question, why and what would decide it in one line a reader (and a test) finds', () => {
    fc.assert(
      fc.property(oneLine, oneLine, oneLine, fc.boolean(), (question, why, toDecide, final) => {
        const line = reasonLine({ question, why, toDecide }, final)
        expect(line).toMatch(REASON)
        expect(line).toBe(`${question}: ${final ? '' : 'PROVISIONAL '}UNDECIDED: ${why}; to decide it: ${toDecide}`)
        expect(line).not.toMatch(/[\r\n]/)
      }),
    )
  })
})

describe('the lines after a run', () => {
  const random = createRandomSource('answer-reasons-lines')
  const inputs = [1_000, 3_750].map((r) => syntheticInput(r, 20_000))
  const { stats, verdicts } = analyzeCapacity(
    plannedMeasurements(PER_FILE, [1_000, 3_750], 2, random),
    inputs,
    T,
    [],
    PLAIN_ANALYSIS,
  )

  test('the line names its level; each UNDECIDED it shows is followed by its reason, nothing it does not show', () => {
    const answer = capacityAnswer(stats, verdicts, { final: false, keptRuns: 4, plannedRuns: 6 })
    const [line, ...reasons] = answerLines(answer)
    expect(line).toMatch(/^capacity PROVISIONAL \(4 of 6 runs\): 6 M: 1 GPU .* \[95% CI, judged once\]$/)
    const shown = (line!.match(/UNDECIDED/g) ?? []).length
    expect(reasons).toHaveLength(shown)
    for (const r of reasons) expect(r).toMatch(/^capacity {3}.*: PROVISIONAL UNDECIDED: .+; to decide it: \S/)
    // 45 K waits for a third size, but the line shows 6 M only: its reason waits for the answer's own lines.
    expect(answer.open.length).toBeGreaterThan(reasons.length)
  })
})

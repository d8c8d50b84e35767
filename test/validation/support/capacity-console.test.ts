// The console reader test/validation/capacity-console.test.ts judges a gpu-project console with, on consoles made by
// the formatters themselves (capacity/answer-state.ts headlineOf, capacity/answer-reasons.ts reasonLine): it finds
// every answer by its name, a missing reason, and a bare FINAL beside `undecided`.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { reasonLine } from '../../../src/capacity/answer-reasons.ts'
import { headlineOf } from '../../../src/capacity/answer-state.ts'
import { answersIn, finalUndecidedWithoutStop, levelsIn, undecidedWithoutReason } from './capacity-console.ts'

/** A record name as the suites write them: configurations' labels, a known answer's prefix, colons and brackets. */
const name = fc
  .tuple(
    fc.constantFrom('capacity, ', 'known answer: direct check, ', 'known answer: fixed cost: '),
    fc.constantFrom('1 GPU', '1 GPU (cpu)', '2 GPUs, prework'),
    fc.constantFrom(' at 8 / 16 seqs', ' (1 GPU at 1,000 / 4,000 seqs)'),
  )
  .map((parts) => parts.join(''))
const status = fc.record({
  final: fc.boolean(),
  keptRuns: fc.nat(20),
  plannedRuns: fc.nat(20),
  check: fc.constantFrom('inside' as const, 'missed' as const, 'unchecked' as const),
})
const answer = fc.record({ name, status, design: fc.boolean(), undecided: fc.nat(3), decided: fc.nat(3) })

/** The lines the report prints for one answer: its line, a reason line per undecided verdict, one table row. */
type Answer = typeof answer extends fc.Arbitrary<infer A> ? A : never

function block(a: Answer, withReasons: boolean): string[] {
  const judged = a.undecided + a.decided
  const headline = headlineOf(a.status, a.design, a.undecided, judged)
  const reasons = Array.from({ length: a.undecided }, (_, i) =>
    reasonLine({ question: `PERF-01, 1 GPU, q${i}`, why: 'w', toDecide: 'd' }, a.status.final),
  )
  return [
    `gpu-report: capacity ${a.name}: ${headline}: 6 M sequences take 5.8 h [5.5, 6.1] on 1 GPU${a.undecided ? ' (undecided against 10 h)' : ''}.`,
    ...(withReasons ? reasons.map((r) => `gpu-report: capacity     ${r}`) : []),
    `gpu-report: capacity     1 GPU  5.80 [5.50, 6.10]  ${a.undecided ? 'UNDECIDED' : 'PASS'}`,
  ]
}

describe('reading a console', () => {
  test('property: every answer by its name and headline; reasons under each; no FINAL without how it stopped', () => {
    fc.assert(
      fc.property(fc.array(answer, { maxLength: 4 }), (answers) => {
        const lines = answers.flatMap((a) => ['stdout | something else', ...block(a, true)])
        expect(answersIn(lines)).toEqual(
          answers.map((a) => ({
            name: a.name,
            headline: headlineOf(a.status, a.design, a.undecided, a.undecided + a.decided),
          })),
        )
        expect(undecidedWithoutReason(lines)).toEqual([])
        expect(finalUndecidedWithoutStop(lines)).toEqual([])
      }),
    )
  })

  test('property: an answer that names a verdict undecided with no reason under it is found, each of its lines', () => {
    fc.assert(
      fc.property(
        answer.filter((a) => a.undecided > 0),
        (a) => {
          const lines = block(a, false)
          expect(undecidedWithoutReason(lines)).toEqual(lines.filter((l) => /undecided/i.test(l)))
        },
      ),
    )
  })

  test("today's bare FINAL beside undecided, and the run line without its reason, are found (issue 44)", () => {
    const lines = [
      'gpu-report: capacity capacity, 1 GPU at 1,000 / 4,000 seqs: FINAL: 6 M sequences take 5.8 h [5.5, 6.1] on 1 GPU (undecided against 10 h).',
      'capacity PROVISIONAL (3 of 6 runs): 6 M: 1 GPU 5.9 h UNDECIDED; 0 of 4 verdicts decided',
      'capacity PROVISIONAL (4 of 6 runs): 6 M: 1 GPU 5.9 h UNDECIDED; 0 of 4 verdicts decided [99.17% CI, Bonferroni over 6 looks]',
      'capacity   PERF-01, 1 GPU, 6,000,000 sequences: PROVISIONAL UNDECIDED: w; to decide it: d',
    ]
    expect(finalUndecidedWithoutStop(lines)).toEqual([lines[0]])
    expect(undecidedWithoutReason(lines)).toEqual([lines[0], lines[1]])
    expect(levelsIn(lines)).toEqual(['99.17% CI, Bonferroni over 6 looks'])
  })
})

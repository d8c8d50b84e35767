/**
 * A known answer's capacity record (benchmarks/validation/capacity: a planted fault, a size run directly) checks the
 * size model against a truth it was given; its figures are that check's evidence, not the answer for a configuration.
 * Its id and name say so, `known answer: fixed cost, planted arm (1 GPU, fixed cost at 1,000 / 16,000 seqs)`, and
 * the name is what a reader goes by: a partial record read back from the run journal has its name and nothing else.
 */
import type { RecordName } from './purpose.ts'

export const KNOWN_ANSWER_PREFIX = 'known answer: '

/** The record name of one known answer: `what` says which check and which arm (`fixed cost, planted arm`). */
export const knownAnswerName = (what: string): RecordName => ({
  id: `known-answer-${what}`,
  title: `${KNOWN_ANSWER_PREFIX}${what}`,
})

/** Whether a record (by its name) is a known answer's, which no report shows as a configuration's capacity answer. */
export const isKnownAnswer = (name: string): boolean => name.startsWith(KNOWN_ANSWER_PREFIX)

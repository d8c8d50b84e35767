/**
 * A study record's `stats` (src/study/stats.ts), checked before the report reads them: a record written by an older
 * study, hand-edited or cut short reads as one line naming the record and the first bad field, never as a crash or as
 * a table of half-read figures. The schema covers the fields the report shows; it is typed against StudyStats, so a
 * change of that shape that this reader does not follow fails to compile here.
 */
import { z } from 'zod'
import { escapeControls } from '../../platform/one-line.ts'
import type { ResultRecord } from '../../results/schema/index.ts'
import { isFlip, type StudyStats } from '../../study/stats.ts'

/** The parts of StudyStats a report reads. */
export type StudyReadStats = Pick<
  StudyStats,
  'grid' | 'screenedOn' | 'production' | 'rounds' | 'best' | 'rows' | 'sameAsDefault' | 'defaultsUnknown'
>

const count = z.number().int().nonnegative()
const figure = z.object({ value: z.number(), low: z.number().nullable(), high: z.number().nullable() })
const decision = z.enum(['pass', 'fail', 'at-threshold', 'undecided'])

const capacity = z.object({
  recordId: z.string(),
  statusText: z.string(),
  perGpuCount: z.array(
    z.object({
      gpuCount: count,
      productionH: figure.nullable(),
      production: decision.nullable(),
      unsupported: z.string().nullable().optional(),
    }),
  ),
  speedups: z.array(
    z.object({ gpuCount: count, speedup: figure.nullable(), threshold: z.number(), state: decision.nullable() }),
  ),
  decisions: z.array(z.object({ id: z.string(), question: z.string(), state: decision })),
})

const share = z.number().min(0).max(1)
/** The consensus figures (issue 56); absent in older records, whose outputs were judged by the equivalence rule. */
const consensus = z.object({
  file: z.string(),
  minAgreement: share,
  referenceCount: count,
  candidateCount: count,
  common: count,
  missing: count,
  extra: count,
  duplicates: count,
  sameIds: z.boolean(),
  agreeing: count,
  labelAgreement: share.nullable(),
  scores: z.object({
    count,
    maxAbs: z.number().nonnegative(),
    meanAbs: z.number().nonnegative(),
    over: count,
    overShare: share,
    step: z.number().nonnegative(),
  }),
})

const row = z.object({
  label: z.string().min(1),
  extraArgs: z.array(z.string()),
  isDefault: z.boolean(),
  screening: z.array(
    z.object({
      round: count,
      records: count,
      runs: count,
      wallMs: z.object({ median: z.number(), low: z.number().nullable(), high: z.number().nullable() }).nullable(),
    }),
  ),
  outputs: z
    .object({
      equal: z.boolean().nullable(),
      records: count,
      detail: z.string(),
      consensus: consensus.nullable().optional(),
    })
    .nullable(),
  dropped: z
    .object({
      round: count,
      records: count,
      why: z.enum(['slower', 'outputs-differ', 'failed', 'no-outputs']),
      detail: z.string(),
    })
    .nullable(),
  capacity: capacity.nullable(),
  flips: z.array(z.object({ id: z.string(), question: z.string(), from: decision, to: decision })),
})

const StudyStatsSchema: z.ZodType<StudyReadStats> = z
  .object({
    // true/false for a flag or a switch pair, null for an option not given (issue 56); numbers and text before.
    grid: z.record(z.string(), z.array(z.union([z.number(), z.string(), z.boolean(), z.null()]))),
    screenedOn: z.string(),
    production: z.number().positive(),
    rounds: z.array(z.object({ round: count, records: count, settings: z.array(z.string()) })),
    best: z.string().nullable(),
    rows: z.array(row).min(1),
    sameAsDefault: count,
    defaultsUnknown: z.array(z.string()).optional(),
  })
  // What the table leans on beyond each field's type: one default to compare with, a best that is one of the rows.
  .superRefine((s, ctx) => {
    if (s.rows.filter((r) => r.isDefault).length !== 1)
      ctx.addIssue({ code: 'custom', path: ['rows'], message: 'must hold exactly one default setting' })
    if (s.best !== null && !s.rows.some((r) => r.label === s.best))
      ctx.addIssue({ code: 'custom', path: ['best'], message: `names '${s.best}', which is none of the rows` })
  })

/** The record's study figures, or what is wrong with them in one line (the record and the first bad field named). */
export function readStudyStats(record: ResultRecord): { stats: StudyReadStats } | { problem: string } {
  const parsed = StudyStatsSchema.safeParse(record.stats)
  // Records written before issue 47 listed as flips any change of state (a verdict left UNDECIDED where the default
  // decided): read, only the true flips stand.
  if (parsed.success)
    return {
      stats: {
        ...parsed.data,
        rows: parsed.data.rows.map((r) => ({ ...r, flips: r.flips.filter((f) => isFlip(f.from, f.to)) })),
      },
    }
  const issue = parsed.error.issues[0]!
  // A path can hold a key of the record's own (an option of the grid): escaped, as the message is.
  const where = escapeControls(['stats', ...issue.path.map(String)].join('.'))
  return {
    problem: `study record '${record.id}' (${escapeControls(record.name)}): damaged stats, no table: ${where}: ${escapeControls(issue.message)}`,
  }
}

import { z } from 'zod'
import { ThresholdsSchema } from '../../config/thresholds.ts'
import { ProvenanceSchema } from './provenance.ts'
import { MeasuredBySchema, MeasuredRunSchema, RESULT_KINDS } from './record.ts'

export type { MeasuredBy } from './record.ts'

/**
 * The run journal's files (src/results/run-journal.ts): one `run.json` per finished run beside its `target.log`, and
 * one measurement file per measurement that says which record its runs are for. Bumped when either changes shape, so
 * a journal written by older code is measured again rather than misread.
 */
export const JOURNAL_FORMAT = 1

/**
 * One finished run. `key` is what makes it reusable (src/results/run-key.ts): a later measurement reuses it only when
 * its own key is equal. `extras` holds what the suites read beyond the record (batch events, memory observations):
 * their shape is the suites' (src/engine/kept-runs.ts checks it).
 */
export const RunEntrySchema = z.object({
  format: z.literal(JOURNAL_FORMAT),
  key: z.record(z.string(), z.unknown()),
  measured: MeasuredRunSchema,
  extras: z.record(z.string(), z.unknown()),
  measuredBy: MeasuredBySchema,
  finishedAt: z.iso.datetime(),
})
export type RunEntry = z.infer<typeof RunEntrySchema>

/** The record a measurement's runs are for, so that a reader can show them as that record, partial, after a kill. */
export const PurposeSchema = z.object({
  kind: z.enum(RESULT_KINDS),
  /** The record id the suite will write (its file name), campaign task suffix included. */
  id: z.string().regex(/^[A-Za-z0-9._-]+$/),
  name: z.string().min(1),
})
export type Purpose = z.infer<typeof PurposeSchema>

/**
 * One arm of a measurement: its label, the folder its runs go to (relative to the work directory) and the key its runs
 * are measured under, which a reader checks each kept run against (absent in journals written before it was kept: the
 * arm's newest run's key stands in).
 */
export const JournalArmSchema = z.object({
  label: z.string(),
  slot: z.string(),
  key: z.record(z.string(), z.unknown()).optional(),
})

export const MeasurementEntrySchema = z.object({
  format: z.literal(JOURNAL_FORMAT),
  purpose: PurposeSchema,
  arms: z.array(JournalArmSchema),
  /** Planned measured runs per arm (the policy's maximum); what "2 of 4 runs kept" counts against. */
  plannedRuns: z.number().int().nonnegative(),
  provenance: ProvenanceSchema,
  thresholds: ThresholdsSchema,
  startedAt: z.iso.datetime(),
})
export type MeasurementEntry = z.infer<typeof MeasurementEntrySchema>

/**
 * summary.json / bottleneck.json / perf02.json: the report objects as JSON in the shapes of the schemas below, so a
 * consumer (CI, a dashboard) can rely on them. summary.json is validated before it is written (it is small and carries
 * text from records and files); the bulk files are serialized from the typed analyses as they are (re-validating the
 * ~3·10^5 objects of a 10,000-record run, which we had just built, took ~0.7 s) and tests hold them to their schemas.
 */
import { z } from 'zod'
import { VERDICTS } from '../../results/schema/index.ts'
import { REPORT_SCHEMA_VERSION, type Report } from '../analyses/build.ts'
import { FleetJsonSchema } from './fleet-json.ts'
import { jsonArrayWriter } from './json-array.ts'
import { TrendsJsonSchema, trendsSummary } from './trends-json.ts'

const num = z.number().nullable()
const range = z.object({ low: z.number(), high: z.number() }).nullable()
const figure = z.object({ value: z.number(), ci: range })
const verdict = z.enum(VERDICTS).nullable()

const SuiteLineSchema = z.object({
  recordId: z.string(),
  kind: z.string(),
  name: z.string(),
  state: z.enum(['completed', 'failed', 'skipped', 'partial']),
  verdict: z.enum([...VERDICTS, 'failed', 'no-verdict', 'partial']),
  keyFigure: z.string().nullable(),
  reason: z.string().nullable(),
  counts: z.record(z.string(), z.number().int()),
})

const FlagSchema = z.object({ rule: z.string(), stage: z.string(), evidence: z.string() })

/** A flagged stage's options and what the settings study measured of them (analyses/bottleneck-options.ts). */
const AdviceSchema = z.object({
  stage: z.string(),
  study: z.object({ recordId: z.string(), name: z.string(), provisional: z.boolean() }).nullable(),
  options: z.array(
    z.object({
      flag: z.string(),
      help: z.string(),
      scope: z.enum(['stage', 'whole pipeline']),
      effect: z.enum(['faster', 'no-change', 'outputs-differ', 'failed', 'not-judged', 'not-varied']),
      measured: z.string().nullable(),
    }),
  ),
  summary: z.string(),
})

/**
 * Flags name their rule; each rule's recommendation is written once, in `recommendations`, and each flagged stage's
 * options once, in `advice` (absent from files written before it: optional, the version unchanged).
 */
export const BottleneckJsonSchema = z.object({
  schemaVersion: z.literal(REPORT_SCHEMA_VERSION),
  recommendations: z.record(z.string(), z.string()),
  advice: z.array(AdviceSchema).optional(),
  groups: z.array(
    z.looseObject({
      recordId: z.string(),
      recordIds: z.array(z.string()).min(1),
      group: z.string(),
      gpuCount: z.number().int(),
      wallMs: z.number(),
      stages: z.array(z.looseObject({ stage: z.string(), durationMs: z.number(), share: z.number(), utilPct: num })),
      flags: z.array(FlagSchema),
    }),
  ),
})

export const Perf02JsonSchema = z.object({
  schemaVersion: z.literal(REPORT_SCHEMA_VERSION),
  rows: z.array(
    z.looseObject({
      recordIds: z.array(z.string()).min(1),
      stage: z.string(),
      gpu: z.number().int(),
      utilMeanPct: num,
      utilP50Pct: num,
      utilP5Pct: num,
      smUtilPct: num,
      tensorUtilPct: num,
      verdict: z.enum(['pass', 'fail', 'inconclusive']),
      note: z.string().nullable(),
    }),
  ),
  pass: z.number().int(),
  fail: z.number().int(),
})

/** A settings study: its table (the rows summary.md shows) or the one line it has instead (analyses/study.ts). */
const studyEntry = {
  recordId: z.string(),
  name: z.string(),
  state: z.enum(['completed', 'failed', 'skipped', 'partial']),
  statusText: z.string(),
  status: z.object({ final: z.boolean(), keptRuns: z.number().int(), plannedRuns: z.number().int().nullable() }),
}
const StudyJsonSchema = z.object({
  entries: z.array(
    z.discriminatedUnion('shows', [
      z.looseObject({
        ...studyEntry,
        shows: z.literal('table'),
        sentence: z.string(),
        table: z.object({
          title: z.string(),
          head: z.array(z.string()),
          rows: z.array(z.array(z.string())),
          notes: z.array(z.string()),
        }),
        settings: z.array(
          z.looseObject({
            label: z.string(),
            isDefault: z.boolean(),
            isBest: z.boolean(),
            outputsEqual: z.boolean().nullable(),
          }),
        ),
      }),
      z.looseObject({ ...studyEntry, shows: z.literal('line'), line: z.string() }),
    ]),
  ),
})

export const ReportJsonSchema = z.looseObject({
  schemaVersion: z.literal(REPORT_SCHEMA_VERSION),
  runId: z.string().nullable(),
  generatedAt: z.string(),
  outcome: z.union([
    z.object({ state: z.literal('passed') }),
    z.object({ state: z.enum(['failed', 'interrupted', 'unknown']), note: z.string() }),
  ]),
  counts: z.object({
    records: z.number(),
    completed: z.number(),
    failed: z.number(),
    skipped: z.number(),
    partial: z.number(),
    invalid: z.number(),
  }),
  invalid: z.array(z.object({ file: z.string(), reason: z.string() })),
  suites: z.array(SuiteLineSchema),
  bottleneck: z.object({ file: z.literal('bottleneck.json'), groups: z.number().int(), flags: z.number().int() }),
  perf02: z.object({
    file: z.literal('perf02.json'),
    rows: z.number().int(),
    pass: z.number().int(),
    fail: z.number().int(),
    /** Rows of partial records (not counted in pass or fail); absent in reports written before. */
    provisional: z.number().int().optional(),
  }),
  scaling: z.object({
    curves: z.array(
      z.looseObject({
        scope: z.string(),
        points: z.array(
          z.looseObject({ gpuCount: z.number(), medianMs: z.number(), ci: range, speedup: num, speedupCi: range }),
        ),
      }),
    ),
  }),
  memory: z.object({
    rows: z.array(
      z.looseObject({ recordIds: z.array(z.string()).min(1), gpu: z.number(), peakMemUsedBytes: z.number() }),
    ),
  }),
  e2e: z.object({
    rows: z.array(
      z.looseObject({
        recordId: z.string(),
        projections: z.array(z.looseObject({ sequences: z.number(), projectedMs: z.number() })),
      }),
    ),
  }),
  capacity: z.object({
    entries: z.array(
      z.looseObject({
        recordId: z.string(),
        targetMs: z.number(),
        columns: z.array(
          z.object({ sequences: z.number(), role: z.enum(['measured', 'sample', 'typical', 'production']) }),
        ),
        configurations: z.array(
          z.looseObject({
            label: z.string(),
            gpuCount: z.number().int(),
            cells: z.array(z.looseObject({ sequences: z.number(), wallMs: figure.nullable(), perf01: verdict })),
          }),
        ),
        comparisons: z.array(
          z.looseObject({
            gpuCount: z.number().int(),
            breakEven: z.object({ sequences: num, ci: z.object({ low: num, high: num }).nullable() }),
            asymptoticSpeedup: figure.nullable(),
          }),
        ),
        curves: z.array(z.looseObject({ gpuCount: z.number().int(), sequences: z.number(), wallMs: z.number() })),
      }),
    ),
  }),
  /** Absent in reports written before settings studies; `entries` empty without a study record. */
  study: StudyJsonSchema.optional(),
  /** Absent in reports written before fleets were merged; null for one host's run without shards. */
  fleet: FleetJsonSchema.optional(),
  kinds: z.object({ equivalence: z.array(z.unknown()), sweep: z.array(z.unknown()), ab: z.array(z.unknown()) }),
  regression: z.looseObject({ comparisons: z.array(z.unknown()), regressed: z.number().int() }).nullable(),
  /** Absent in reports written before the history existed; null when no history was asked for. */
  trends: TrendsJsonSchema.optional(),
  benchmarks: z.array(z.looseObject({ name: z.string(), latencyMs: z.looseObject({ mean: z.number() }) })),
  notes: z.array(z.string()),
})

export class ReportSchemaError extends Error {
  override name = 'ReportSchemaError'
}

/** Pretty-printed: summary.json is read by people too. */
function validated(schema: z.ZodType, value: unknown, file: string): string {
  const parsed = schema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new ReportSchemaError(`${file}: ${issue?.path.join('.')}: ${issue?.message}`)
  }
  return `${JSON.stringify(value, null, 2)}\n`
}

/**
 * summary.json: the whole report except the bottleneck groups and PERF-02 rows, which have their own files (and are
 * the bulk of a large run), and the trend charts' points (trends-json.ts); it says where they are and how many.
 * @throws ReportSchemaError naming the file and the first bad field (a bug in an analysis, never bad input).
 */
export function summaryJson(report: Report): string {
  const summary = {
    ...report,
    bottleneck: {
      file: 'bottleneck.json',
      groups: report.bottleneck.groups.length,
      flags: report.bottleneck.groups.reduce((n, g) => n + g.flags.length, 0),
    },
    perf02: {
      file: 'perf02.json',
      rows: report.perf02.rows.length,
      pass: report.perf02.pass,
      fail: report.perf02.fail,
      provisional: report.perf02.provisional,
    },
    trends: trendsSummary(report.trends),
  }
  return validated(ReportJsonSchema, summary, 'summary.json')
}

/** bottleneck.json (compact): the groups, their flags without the recommendation text, which is keyed by rule once. */
export function bottleneckJson(report: Report): string {
  const recommendations: Record<string, string> = {}
  const groups = jsonArrayWriter<unknown>()
  for (const g of report.bottleneck.groups) {
    const flags = g.flags.map((f) => {
      recommendations[f.rule] = f.recommendation
      return { rule: f.rule, stage: f.stage, evidence: f.evidence }
    })
    groups.push({ ...g, flags })
  }
  const advice = JSON.stringify(report.bottleneck.advice)
  const head = `"schemaVersion":${REPORT_SCHEMA_VERSION},"recommendations":${JSON.stringify(recommendations)},"advice":${advice}`
  return `{${head},"groups":${groups.text()}}\n`
}

/** perf02.json (compact): the PERF-02 rows and counts as the analysis made them. */
export function perf02Json(report: Report): string {
  return `${JSON.stringify({ schemaVersion: REPORT_SCHEMA_VERSION, ...report.perf02 })}\n`
}

/**
 * The trends as summary.json holds them: every change point and newest-commit judgement, and per chart its lines with
 * their point counts and newest value. The drawn points stay out (up to 12 charts x 8 lines x 100 runs would be most
 * of the file); `virnucpro-bench history show --json` gives any series whole. JSON has no Infinity: a relative change
 * from exactly 0 is written as null.
 */
import { z } from 'zod'
import type { SeriesChange } from '../../history/changes.ts'
import type { TrendsReport } from '../analyses/trends.ts'

const finiteOrNull = (v: number) => (Number.isFinite(v) ? v : null)

const level = z.object({
  median: z.number(),
  ci: z.object({ low: z.number(), high: z.number() }).nullable(),
  n: z.number().int(),
})

/** A regression the gate fails on, or a suspect it reports (src/history/changes.ts Regression). */
const regressionJson = z.looseObject({
  metric: z.string(),
  how: z.enum(['change-point', 'newest-vs-window']),
  fromCommit: z.string(),
  toCommit: z.string(),
  pointsRegressed: z.number().int().positive().optional(),
})

export const TrendsJsonSchema = z
  .union([
    z.object({ state: z.literal('unavailable'), file: z.string(), reason: z.string() }),
    z.looseObject({
      state: z.literal('loaded'),
      file: z.string(),
      runs: z.number().int(),
      series: z.number().int(),
      singlePointSeries: z.number().int(),
      charts: z.array(
        z.looseObject({
          metric: z.string(),
          family: z.enum(['wall', 'rate', 'perf02', 'energy', 'projection']),
          unit: z.string().nullable(),
          runs: z.number().int(),
          lines: z.array(
            z.looseObject({
              recordId: z.string(),
              host: z.string(),
              gpuModel: z.string(),
              points: z.number().int(),
              newestValue: z.number(),
            }),
          ),
          changes: z.number().int(),
          regressions: z.number().int(),
        }),
      ),
      chartsLeftOut: z.number().int(),
      changes: z.array(
        z.looseObject({
          metric: z.string(),
          recordId: z.string(),
          host: z.string(),
          gpuModel: z.string(),
          fromKey: z.string(),
          toKey: z.string(),
          fromRun: z.string(),
          toRun: z.string(),
          before: level,
          after: level,
          relativeChange: z.number().nullable(),
          pValue: z.number(),
          regression: z.boolean(),
          confirmedByNewest: z.boolean(),
        }),
      ),
      newestCommit: z.string().nullable(),
      newestRun: z.string().nullable(),
      newest: z.array(
        z.looseObject({
          metric: z.string(),
          recordId: z.string(),
          verdict: z.enum(['regressed', 'improved', 'unchanged', 'inconclusive']),
        }),
      ),
      regressions: z.array(regressionJson),
      suspects: z.array(regressionJson),
    }),
  ])
  .nullable()

const changeJson = (c: SeriesChange) => ({
  ...c,
  relativeChange: finiteOrNull(c.relativeChange),
  movedWith: c.movedWith.map((m) => ({ ...m, relativeChange: finiteOrNull(m.relativeChange) })),
})

export function trendsSummary(trends: TrendsReport | null) {
  if (trends === null || trends.state === 'unavailable') return trends
  return {
    ...trends,
    charts: trends.charts.map(({ positions, lines, marks, ...chart }) => ({
      ...chart,
      runs: positions.length,
      lines: lines.map(({ points, pointsTotal, ...line }) => ({ ...line, points: pointsTotal })),
    })),
    changes: trends.changes.map(changeJson),
  }
}

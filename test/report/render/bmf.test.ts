import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { buildReport } from '../../../src/report/analyses/build.ts'
import { bencherMetricsJson } from '../../../src/report/render/bmf.ts'
import type { Figure } from '../../../src/report/render/ci-formats.ts'
import { ITEMS_PER_CHUNK } from '../../../src/report/render/json-array.ts'
import { loadDemo } from '../support/demo.ts'
import { expectBmf } from '../support/formats.ts'

const demo = await loadDemo()
const report = buildReport(demo)
const noRows = { ...report, perf02: { rows: [], pass: 0, fail: 0, provisional: 0 } }

/**
 * The plain way: assign every entry, then serialize. Entries go through a Map and Object.fromEntries so that a name
 * such as `__proto__` (fast-check found one) becomes a key, as it is in the JSON text, not the object's prototype.
 */
function assigned(figures: readonly Figure[]): unknown {
  const out = new Map<string, unknown>()
  for (const f of figures) {
    const latency: Record<string, number> = { value: f.valueMs * 1e6 }
    if (f.lowMs !== null && f.highMs !== null) {
      latency.lower_value = f.lowMs * 1e6
      latency.upper_value = f.highMs * 1e6
    }
    out.set(f.name, { latency })
  }
  return JSON.parse(JSON.stringify(Object.fromEntries(out)))
}

const value = fc.oneof(fc.double(), fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0))
const figure = fc.record({
  // few distinct names so that repeats happen; any text, quotes and control characters included
  name: fc.oneof(fc.string(), fc.constantFrom('a', 'a', 'b"\\\n', '\u2028')),
  valueMs: value,
  lowMs: fc.option(value),
  highMs: fc.option(value),
  ciLabel: fc.option(fc.constant('95% CI')),
  extra: fc.constant(''),
})

describe('bench.bmf.json', () => {
  test('parses to what assigning each entry to an object and serializing it gives (repeats: last value wins)', () => {
    fc.assert(
      fc.property(fc.array(figure, { maxLength: 20 }), (figures) => {
        expect(JSON.parse(bencherMetricsJson(noRows, figures))).toEqual(assigned(figures))
      }),
    )
  })

  test('a list longer than one chunk is still one object holding every entry, in order', () => {
    const figures = Array.from({ length: ITEMS_PER_CHUNK * 2 + 3 }, (_, i) => ({
      name: `f${i}`,
      valueMs: i,
      lowMs: null,
      highMs: null,
      ciLabel: null,
      extra: '',
    }))
    const keys = Object.keys(JSON.parse(bencherMetricsJson(noRows, figures)))
    expect(keys).toEqual(figures.map((f) => f.name))
  })

  test('the demo run in Bencher Metric Format, with latency in ns and one utilization entry per PERF-02 row', () => {
    const bmf = JSON.parse(bencherMetricsJson(report)) as Record<string, Record<string, { value: number }>>
    expectBmf(bmf)
    const utilization = Object.keys(bmf).filter((k) => k.startsWith('perf02/'))
    expect(utilization).toHaveLength(report.perf02.rows.length)
    const total = report.scaling.curves.find((c) => c.scope === 'total')?.points[0]
    expect(bmf[`scaling-reference/1 GPU/total`]?.latency?.value).toBe((total?.medianMs as number) * 1e6)
  })
})

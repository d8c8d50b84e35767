// Structural checks of the CI formats and the trace, shared by the reporter and renderer tests.
import { expect } from 'vitest'

/** Chrome JSON trace object format: {traceEvents, displayTimeUnit}; X slices with ts/dur (µs), C counters, M names. */
export function expectTrace(trace: unknown): void {
  const t = trace as { traceEvents: Record<string, unknown>[]; displayTimeUnit: string }
  expect(t.displayTimeUnit).toBe('ms')
  expect(Array.isArray(t.traceEvents)).toBe(true)
  const phases = new Set(t.traceEvents.map((e) => e.ph))
  expect([...phases].every((p) => p === 'X' || p === 'C' || p === 'M')).toBe(true)
  for (const e of t.traceEvents) {
    expect(typeof e.name).toBe('string')
    expect(Number.isInteger(e.pid)).toBe(true)
    if (e.ph === 'X') {
      expect(Number.isFinite(e.ts) && Number.isFinite(e.dur) && (e.dur as number) >= 0).toBe(true)
      expect(e.tid).toBeDefined()
    }
    if (e.ph === 'C') {
      expect(Number.isFinite(e.ts)).toBe(true)
      expect(Object.values(e.args as object).every((v) => Number.isFinite(v))).toBe(true)
    }
    if (e.ph === 'M') expect(['process_name', 'thread_name']).toContain(e.name)
  }
  expect(phases.has('X')).toBe(true)
}

/** Bencher Metric Format: { name: { measure: { value, lower_value?, upper_value? } } }. */
export function expectBmf(bmf: unknown): void {
  expect(typeof bmf).toBe('object')
  const entries = Object.entries(bmf as Record<string, Record<string, Record<string, number>>>)
  expect(entries.length).toBeGreaterThan(0)
  for (const [, measures] of entries)
    for (const [, m] of Object.entries(measures)) {
      expect(Number.isFinite(m.value)).toBe(true)
      expect(Object.keys(m).every((k) => ['value', 'lower_value', 'upper_value'].includes(k))).toBe(true)
      if (m.lower_value !== undefined) expect(m.lower_value).toBeLessThanOrEqual(m.upper_value as number)
    }
}

/** github-action-benchmark customSmallerIsBetter: [{ name, unit, value, range?, extra? }]. */
export function expectGithubBenchmark(entries: unknown): void {
  expect(Array.isArray(entries)).toBe(true)
  for (const e of entries as Record<string, unknown>[]) {
    expect(typeof e.name).toBe('string')
    expect(typeof e.unit).toBe('string')
    expect(Number.isFinite(e.value)).toBe(true)
    expect(Object.keys(e).every((k) => ['name', 'unit', 'value', 'range', 'extra'].includes(k))).toBe(true)
  }
  expect(new Set((entries as { name: string }[]).map((e) => e.name)).size).toBe((entries as unknown[]).length)
}

import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { JsonlWriter } from '../../src/monitor/jsonl-writer.ts'
import { MonitorLogError, parseMonitorLog, readMonitorLog } from '../../src/monitor/log-reader.ts'
import type { MonitorRecord } from '../../src/monitor/records.ts'
import { tempLogPath } from './support/fake.ts'
import { header, sample } from './support/records.ts'

describe('reading a monitor log', () => {
  test('a last line cut off mid-write is returned apart, not parsed', () => {
    const text = `${JSON.stringify(header([0]))}\n${JSON.stringify(sample(0, 1))}\n{"kind":"sam`
    const log = parseMonitorLog(text)
    expect(log.records.map((r) => r.kind)).toEqual(['header', 'sample'])
    expect(log.truncatedTail).toBe('{"kind":"sam')
  })

  test('a complete line that is not a record names the file and line', () => {
    const text = `${JSON.stringify(header([0]))}\n{"kind":"sample","tMs":"soon"}\n`
    expect(() => parseMonitorLog(text, 'run.jsonl')).toThrow(MonitorLogError)
    expect(() => parseMonitorLog(text, 'run.jsonl')).toThrow(/^run\.jsonl:2: not a monitor record: tMs/)
  })

  test('a complete line that is not JSON is an error too', () => {
    expect(() => parseMonitorLog('{"kind":\n', 'x.jsonl')).toThrow(/x\.jsonl:1: not JSON/)
  })

  test('property: whatever the writer writes, the reader reads back unchanged', async () => {
    const sampleArb = fc.record({
      gpu: fc.integer({ min: 0, max: 7 }),
      tMs: fc.double({ min: 0, max: 1e7, noNaN: true }),
      utilPct: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
      stage: fc.option(fc.string(), { nil: null }),
    })
    await fc.assert(
      fc.asyncProperty(fc.array(sampleArb, { maxLength: 30 }), async (rows) => {
        const path = tempLogPath()
        const records: MonitorRecord[] = [header([0, 1]), ...rows.map((r) => sample(r.gpu, r.tMs, r))]
        const writer = new JsonlWriter(path)
        writer.write(records.slice(0, 1))
        writer.write(records.slice(1))
        writer.close()
        expect((await readMonitorLog(path)).records).toEqual(records)
        expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true)
      }),
      { numRuns: 50 },
    )
  })
})

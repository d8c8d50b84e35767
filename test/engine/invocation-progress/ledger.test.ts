import { appendFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  appendLedgerLine,
  type LedgerLine,
  ledgerPath,
  ledgerTail,
  parseLedger,
} from '../../../src/engine/invocation-progress/ledger.ts'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'

const runOf = (arm: string, n: number): LedgerLine => ({
  type: 'run',
  at: n,
  file: 'benchmarks/e2e.gpu.test.ts',
  measurement: '1-1',
  arm,
  phase: 'run',
  n,
  wallMs: 1_000 * n,
  exitClass: 'completed',
  reused: null,
})

describe('the progress ledger', () => {
  test('a tail gives each whole line once, as it is appended; a line written in halves waits for its end', () => {
    const path = join(tempDirUntilFileEnd('ledger-'), 'l.jsonl')
    const read = ledgerTail(path)
    expect(read()).toEqual([])
    appendLedgerLine(path, runOf('1 GPU', 1))
    expect(read()).toEqual([runOf('1 GPU', 1)])
    expect(read()).toEqual([])
    // A label outside ASCII cut inside a character: the reader keeps bytes, not text, until the line ends.
    const text = `${JSON.stringify(runOf('1 GPU × 4,000 seqs', 2))}\n`
    const bytes = Buffer.from(text)
    const cut = bytes.indexOf(Buffer.from('×')) + 1
    appendFileSync(path, bytes.subarray(0, cut))
    expect(read()).toEqual([])
    appendFileSync(path, bytes.subarray(cut))
    expect(read()).toEqual([runOf('1 GPU × 4,000 seqs', 2)])
  })

  test('lines cut off, of other code or of no JSON are left out, never thrown', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.json()), { maxLength: 20 }), (junk) => {
        const good = runOf('a', 1)
        const lines = parseLedger([...junk, JSON.stringify(good)].join('\n'))
        expect(lines.at(-1)).toEqual(good)
      }),
    )
    expect(parseLedger(`${JSON.stringify(runOf('a', 1)).slice(0, 30)}\n{"type":"run"}\n`)).toEqual([])
  })

  test('a missing ledger reads as nothing yet', () => {
    expect(ledgerTail('/nonexistent/ledger.jsonl')()).toEqual([])
    const dir = tempDirUntilFileEnd('ledger-')
    writeFileSync(join(dir, 'empty.jsonl'), '')
    expect(ledgerTail(join(dir, 'empty.jsonl'))()).toEqual([])
  })

  test('ledger files sort by the start of their invocation', () => {
    const a = ledgerPath('/w', new Date('2026-11-29T09:05:00Z'), 7)
    const b = ledgerPath('/w', new Date('2026-11-29T10:00:00Z'), 3)
    expect(a).toBe('/w/progress/20261129T090500000Z-7.jsonl')
    expect([b, a].sort()).toEqual([a, b])
  })
})

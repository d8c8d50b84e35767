import { expect } from 'vitest'
import type { ResultRecord } from '../../src/results/schema/index.ts'

/** Never green on nothing: the record must hold at least one judged (pass/fail) verdict. */
export function expectJudged(record: ResultRecord): void {
  const judged = record.verdicts.filter((v) => v.verdict === 'pass' || v.verdict === 'fail')
  expect(
    judged.length,
    `record ${record.id} judged nothing${record.reason ? ` (${record.reason})` : ''}: ${JSON.stringify(record.verdicts.map((v) => [v.id, v.verdict]))}`,
  ).toBeGreaterThan(0)
}

/** Soft-asserts that no verdict whose id matches `pattern` failed; the message carries its detail. */
export function expectNoFail(record: ResultRecord, pattern: RegExp): void {
  for (const v of record.verdicts.filter((x) => pattern.test(x.id)))
    expect.soft(v.verdict, `${v.id}: ${v.detail}`).not.toBe('fail')
}

import type { TestContext } from 'vitest'
import type { ResultRecord, Verdict } from '../../src/results/schema/index.ts'

const formatValue = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toPrecision(3))

/** `id: verdict value unit [low, high]` for one verdict. */
export function verdictLine(v: Verdict): string {
  const value = v.value === undefined || v.value === null ? '' : ` ${formatValue(v.value)}${v.unit ? ` ${v.unit}` : ''}`
  const ci = v.ci ? ` [${formatValue(v.ci.low)}, ${formatValue(v.ci.high)}]` : ''
  return `${v.id}: ${v.verdict}${value}${ci}`
}

/**
 * Annotates the test with one line per verdict of `record` that was judged or flagged (skips left out), so the GPU
 * log alone carries a suite's figures: the annotation reporter prints them, whatever happens to the record files.
 */
export async function annotateVerdicts(record: ResultRecord, annotate: TestContext['annotate']): Promise<void> {
  const lines = record.verdicts.filter((v) => v.verdict !== 'skipped').map(verdictLine)
  await annotate([`${record.id}:`, ...lines].join('\n'))
}

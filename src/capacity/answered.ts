/**
 * The capacity answer a run already holds for a set of configurations (issue 44). The main job runs the capacity file
 * and the settings study in one run; the study's answer for the default setting is the same configurations at the
 * same sizes, and it measured them again at half the budget and printed a second answer under the same name, with
 * another interval. One configuration gets one answer in a run: whichever file measures it first writes it, and the
 * other takes that record as it is (the journal would give the runs back anyway; a design of another budget would then
 * have stopped elsewhere and written a second record beside it).
 */

import type { SuiteContext } from '../engine/context.ts'
import { recordId } from '../engine/record.ts'
import type { ResultRecord } from '../results/schema/index.ts'
import { readResultRecords } from '../results/store.ts'

/**
 * The completed record of `purposeId` (capacity/purpose.ts, a configurations' answer) in the context's run, or null.
 * A failed or cut record is no answer: it is measured again. A run directory that cannot be read has none either.
 */
export async function answeredInRun(
  ctx: Pick<SuiteContext, 'resultsDir' | 'task'>,
  purposeId: string,
): Promise<ResultRecord | null> {
  const id = recordId(ctx, purposeId)
  const { records } = await readResultRecords(ctx.resultsDir).catch(() => ({ records: [] as ResultRecord[] }))
  return records.find((r) => r.kind === 'capacity' && r.id === id && r.state === 'completed') ?? null
}

/** The line that says so, where the measurement's line after every run would have gone. */
export const answeredLine = (name: string, record: ResultRecord) =>
  `${name}: answered already in this run (record ${record.id}, ${record.runs.length} runs): taken as it is, not measured again`

/**
 * The calibration of report aggregation: JSON.parse of the records' own text, the work a `report` run starts with
 * (every record file and monitor log is JSON): the demo record the bench's 10,000 records are made from, parsed
 * RECORD_PARSES times (a tenth of the records), and a tenth of the monitor samples as JSONL lines, parsed one by one.
 * A fixed amount: the bench's limit is a ratio to it.
 */
export const RECORD_PARSES = 1_000

export interface ParseInput {
  recordText: string
  sampleLines: readonly string[]
}

/** Parses the input; returns how many objects came out (so the work cannot be skipped). */
export function parseRecordsAndSamples(input: ParseInput): number {
  let parsed = 0
  for (let i = 0; i < RECORD_PARSES; i++) if (JSON.parse(input.recordText)) parsed++
  for (const line of input.sampleLines) if (JSON.parse(line)) parsed++
  return parsed
}

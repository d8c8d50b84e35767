// Two records sharing runs, as a suite run makes them: the committed demo scaling record, each run given its own
// pipeline log (one folder per run, as observe-run writes them), and a stage record holding its 1-GPU runs, as the
// run cache hands the scaling suite's 1-GPU measurement to the stage suite.

import type { ReportInput } from '../../../src/report/input.ts'
import type { ResultRecord } from '../../../src/results/schema/index.ts'

export function sharedRunRecords(demo: ReportInput): { scaling: ResultRecord; stage: ResultRecord } {
  const scaling = structuredClone(demo.records.find((r) => r.id === 'scaling-reference') as ResultRecord)
  for (const m of scaling.runs) m.run.logPath = `/results/work/${m.label.replaceAll(/\W+/g, '-')}/target.log`
  const stage: ResultRecord = {
    ...scaling,
    id: 'stage-1-GPU',
    kind: 'stage',
    name: 'stage throughput, 1 GPU',
    runs: scaling.runs.filter((m) => m.label.startsWith('1 GPU')),
  }
  return { scaling, stage }
}

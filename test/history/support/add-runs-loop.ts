// A second process adding runs to a history, one transaction a run, as `history add` does night after night: the
// concurrent writer of test/cli/history-faults.test.ts. Usage: node add-runs-loop.ts DB FIRST_RUN PAUSE_MS
// Prints one line once its first run is committed, then adds runs FIRST_RUN, FIRST_RUN + 1, ... until killed, pausing
// PAUSE_MS after each (a commit every few ms: the history grows slowly enough that later reads cost what early ones do).
import { HistoryStore } from '../../../src/history/store.ts'
import { syntheticHistory } from './synthetic-history.ts'

const [db, first, pauseMs] = process.argv.slice(2)
const pause = new Int32Array(new SharedArrayBuffer(4))
// Runs made one at a time from one template (a run a minute, as syntheticHistory makes them): the loop never ends.
const [template] = syntheticHistory({ runs: 1, metrics: 5, runsPerPoint: 0 })
const startMs = Date.parse(template!.records[0]!.createdAt)
using store = HistoryStore.open(db!)
for (let run = Number(first); ; run++) {
  const createdAt = new Date(startMs + run * 60_000).toISOString()
  const records = template!.records.map((record) => ({ ...record, createdAt }))
  store.addRun({ ...template!, runId: `writer-${String(run).padStart(6, '0')}`, records })
  if (run === Number(first)) console.log('first run added')
  Atomics.wait(pause, 0, 0, Number(pauseMs))
}

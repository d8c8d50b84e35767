/**
 * The calibration of `history changes` (run as its own process: `node history-read.ts DB`): what any reader of the
 * history must do, plainly: start Node, open the SQLite file, read every metric's values in history order, and run
 * the change-point calibration's pair loop over each series once. Prints the series count and a checksum.
 */
import { DatabaseSync } from 'node:sqlite'
import { windowPairDistances } from './pair-distances.ts'

const path = process.argv[2]
if (!path) throw new Error('usage: node history-read.ts DB')
const db = new DatabaseSync(path, { readOnly: true })
const rows = db
  .prepare(
    `SELECT mt.metric AS metric, mt.value AS value FROM metrics mt JOIN records r ON r.id = mt.record
     ORDER BY mt.metric, r.created_at, r.id`,
  )
  .all() as { metric: number; value: number }[]
db.close()
const series = new Map<number, number[]>()
for (const row of rows) {
  const values = series.get(row.metric) ?? []
  values.push(row.value)
  series.set(row.metric, values)
}
let checksum = 0
for (const values of series.values()) checksum += windowPairDistances(Float64Array.from(values))
console.log(JSON.stringify({ series: series.size, points: rows.length, checksum }))

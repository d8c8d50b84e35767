/** A history damaged as a failing disk or a torn copy would: one page of its metrics table overwritten mid-file. */
import { closeSync, openSync, writeSync } from 'node:fs'
import { DatabaseSync } from 'node:sqlite'

/**
 * Overwrites the middle leaf page of the `metrics` table of `file` (found through SQLite's dbstat table) with 0xa5
 * bytes, and returns its page number. The file needs a few metrics pages: 400 runs x 5 metrics has about 20.
 */
export function damageMetricsPage(file: string): number {
  const db = new DatabaseSync(file)
  const leaves = db
    .prepare("SELECT pageno FROM dbstat WHERE name = 'metrics' AND pagetype = 'leaf' ORDER BY pageno")
    .all() as { pageno: number }[]
  const pageSize = (db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size
  db.close()
  if (leaves.length < 3)
    throw new Error(`${file}: ${leaves.length} metrics leaf page(s), too few to damage one mid-file`)
  const page = leaves[leaves.length >> 1]!.pageno
  const fd = openSync(file, 'r+')
  try {
    writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (page - 1) * pageSize)
  } finally {
    closeSync(fd)
  }
  return page
}

/** `PRAGMA integrity_check` of `file` through its own connection: 'ok', what it found, or SQLite's error. */
export function integrityCheck(file: string): string {
  const db = new DatabaseSync(file, { readOnly: true })
  try {
    return (db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[])
      .map((row) => row.integrity_check)
      .join('; ')
  } catch (error) {
    return (error as Error).message
  } finally {
    db.close()
  }
}

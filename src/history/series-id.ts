/**
 * Which series a record's metrics belong to. A campaign task's record id ends in `.<host>-t<task>` (src/engine/record.ts:
 * the task's short host name and its array index), so that tasks sharing a run directory never overwrite each other.
 * The host is part of a series' key already, and the index says only where the host stood in that night's array: the
 * series is the record's id without that suffix, or one host's nights would scatter over as many series as indices.
 */

/** The short host name as the job script writes it: the first label, only [A-Za-z0-9._-] kept. */
const taskHost = (hostname: string) => (hostname.split('.')[0] ?? '').replace(/[^A-Za-z0-9._-]/g, '')

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** `recordId` without a trailing `.<host>-t<n>` naming `hostname`'s own task; any other id as it is. */
export function seriesRecordId(recordId: string, hostname: string): string {
  const host = taskHost(hostname)
  if (host === '') return recordId
  const suffix = new RegExp(`\\.${escapeRegExp(host)}-t\\d+$`)
  return recordId.replace(suffix, '')
}

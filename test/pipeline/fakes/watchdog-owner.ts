/**
 * Child process for the watchdog test: starts a watchdog for the group PGID and the marker MARKER, prints READY, and
 * waits to be killed (the kernel then closes the watchdog's pipe and it fires).
 * Usage: node watchdog-owner.ts PGID MARKER
 */
import { startWatchdog } from '../../../src/pipeline/watchdog.ts'

const [pgid, marker] = process.argv.slice(2)
if (!pgid || !marker) throw new Error('usage: watchdog-owner.ts PGID MARKER')
startWatchdog(Number(pgid), 200, marker)
console.log('READY')
setInterval(() => {}, 1_000)

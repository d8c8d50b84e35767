// Child process for the crash test: starts a monitor at 10 ms on the fake named by the environment, prints the log
// path, then sets stages in a loop until it is killed (kill -9: no stop(), no flush, no close).
import { GpuMonitor } from '../../../src/monitor/monitor.ts'

const [logPath, addonPath] = process.argv.slice(2) as [string, string]
const started = await GpuMonitor.start({ addonPath, logPath, intervalMs: 10, energyIntervalMs: 50 })
if (started.state !== 'started') throw new Error(started.reason)
console.log('started')
let i = 0
setInterval(() => started.monitor.setStage(`stage ${i++}`), 25)

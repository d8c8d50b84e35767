// Worker-thread body for worker.test.ts: opens its own NVML session on the fake the parent activated (the worker
// inherits the parent's environment) and posts back N snapshots' power readings.
import { parentPort, workerData } from 'node:worker_threads'
import { openNvml } from '../../../src/nvml/session.ts'

const { addonPath, count } = workerData as { addonPath: string; count: number }
const opened = openNvml({ addonPath })
if (!opened.available) throw new Error(opened.reason)
const device = opened.session.listDevices()[0]!
const powers = Array.from({ length: count }, () => {
  const snapshot = device.snapshot()
  return snapshot.state === 'ok' ? snapshot.powerMw : -1
})
opened.session.close()
parentPort!.postMessage(powers)

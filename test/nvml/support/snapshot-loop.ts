// Child process for the leak test: N snapshots of GPU 0 on the fake named by the environment, printing RSS and
// open file descriptors before and after as one JSON line. Run with --expose-gc so both readings follow a full GC.
import { readdirSync } from 'node:fs'
import { openNvml } from '../../../src/nvml/session.ts'

const count = Number(process.argv[2] ?? 1_000_000)
const WARMUP = 20_000

function settledRssBytes(): number {
  globalThis.gc?.()
  globalThis.gc?.()
  return process.memoryUsage.rss()
}

const fdCount = () => readdirSync('/proc/self/fd').length

const opened = openNvml({ addonPath: process.env.NVML_TEST_ADDON })
if (!opened.available) throw new Error(opened.reason)
const device = opened.session.listDevices()[0]
if (!device) throw new Error('no device')
let lastPowerMw = 0
for (let i = 0; i < WARMUP; i++) device.snapshot()
const rssBeforeBytes = settledRssBytes()
const fdsBefore = fdCount()
const startMs = performance.now()
for (let i = 0; i < count; i++) {
  const snapshot = device.snapshot()
  if (snapshot.state === 'ok') lastPowerMw = snapshot.powerMw ?? 0
}
const durationMs = performance.now() - startMs
const rssAfterBytes = settledRssBytes()
const fdsAfter = fdCount()
opened.session.close()
console.log(JSON.stringify({ count, durationMs, rssBeforeBytes, rssAfterBytes, fdsBefore, fdsAfter, lastPowerMw }))

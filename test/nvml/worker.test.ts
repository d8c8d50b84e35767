// The addon is context-aware: a worker thread loads it beside the main thread and both read the same library.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { expect, test } from 'vitest'
import { ADDON_PATH, openSession, useFake } from './support/session.ts'

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support', 'worker-snapshot.ts')

function runWorker(count: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: { addonPath: ADDON_PATH, count } })
    worker.once('message', resolve)
    worker.once('error', reject)
  })
}

test('a worker thread and the main thread read NVML side by side; init stays ref-counted', async () => {
  const fake = useFake({ devices: [{ powerMw: 250_000 }] })
  const session = openSession()
  const mainDevice = session.listDevices()[0]!
  const fromWorkers = await Promise.all([runWorker(1_000), runWorker(1_000)])
  expect(fromWorkers.flat().every((powerMw) => powerMw === 250_000)).toBe(true)
  expect(mainDevice.snapshot()).toMatchObject({ state: 'ok', powerMw: 250_000 })
  session.close()
  expect(fake.stats().refCount).toBe(0)
})

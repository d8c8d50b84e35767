/** Runs the plain sampling thread (plain-sampler-worker.ts) for one window; resolves with its CPU per tick. */
import { once } from 'node:events'
import { Worker } from 'node:worker_threads'
import type { PlainSamplerInput, PlainSamplerResult } from './plain-sampler-worker.ts'

const WORKER_URL = new URL('./plain-sampler-worker.ts', import.meta.url)

export async function runPlainSampler(input: PlainSamplerInput): Promise<PlainSamplerResult> {
  const worker = new Worker(WORKER_URL, { workerData: input })
  const [result] = (await Promise.race([
    once(worker, 'message'),
    once(worker, 'error').then(([error]) => Promise.reject(error)),
  ])) as [PlainSamplerResult]
  await worker.terminate()
  return result
}

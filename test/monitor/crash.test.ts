// The log survives a crash: kill -9 the process that runs the monitor; every complete line still parses.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { parseMonitorLog } from '../../src/monitor/log-reader.ts'
import { summarizeRecords } from '../../src/monitor/summary/summarize.ts'
import { ADDON_PATH, sleep, tempLogPath, useFake } from './support/fake.ts'

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support', 'crash-child.ts')

test('after kill -9 of the monitoring process every complete JSONL line parses and summarizes', async () => {
  useFake({ devices: [{ utilGpuPct: [10, 90] }, { utilGpuPct: 50 }] })
  const logPath = tempLogPath()
  const child = spawn(process.execPath, [CHILD, logPath, ADDON_PATH], { stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)))
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (data: Buffer) => data.toString().includes('started') && resolve())
    child.once('exit', () => reject(new Error('monitor child exited before starting')))
  })
  await sleep(700)
  child.kill('SIGKILL')
  expect(await exited).toBe('SIGKILL')
  const log = parseMonitorLog(readFileSync(logPath, 'utf8'), logPath)
  const kinds = new Set(log.records.map((r) => r.kind))
  expect(kinds).toEqual(new Set(['header', 'sample', 'stage', 'energy', 'processes']))
  expect(log.records.filter((r) => r.kind === 'sample').length).toBeGreaterThan(40)
  const summary = summarizeRecords(log.records)
  expect(summary.sampler).toBeNull()
  expect(summary.gpus.map((g) => g.sampleCount)).toEqual([expect.any(Number), expect.any(Number)])
  expect(summary.stages.length).toBeGreaterThan(5)
})

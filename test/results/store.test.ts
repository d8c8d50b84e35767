import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { parseResultRecord, readResultRecords, storeResultRecord, writeResultRecord } from '../../src/results/store.ts'
import { sampleResultRecord } from '../support/result-records.ts'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'store-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

test('a written record reads back equal, one file per record named by its id', async () => {
  const record = sampleResultRecord()
  const path = await writeResultRecord(dir, record)
  expect(path).toBe(join(dir, 'stage-reference-1gpu.json'))
  const { records, invalid } = await readResultRecords(dir)
  expect(invalid).toEqual([])
  expect(records).toEqual([record])
})

test('a record never replaces another of the same id: the second is stored as <id>-2, and says so', async () => {
  const first = sampleResultRecord({ name: 'scaling suite, MEDIUM' })
  const second = sampleResultRecord({ name: 'scaling validation, 5,000 sequences' })
  await writeResultRecord(dir, first)
  const stored = await storeResultRecord(dir, second)
  expect(stored.path).toBe(join(dir, 'stage-reference-1gpu-2.json'))
  expect(stored.record.id).toBe('stage-reference-1gpu-2')
  const { records } = await readResultRecords(dir)
  expect(records.map((r) => [r.id, r.name]).sort()).toEqual([
    ['stage-reference-1gpu', 'scaling suite, MEDIUM'],
    ['stage-reference-1gpu-2', 'scaling validation, 5,000 sequences'],
  ])
})

test('concurrent writers of one id each get their own file', async () => {
  await Promise.all([1, 2, 3].map((i) => writeResultRecord(dir, sampleResultRecord({ name: `writer ${i}` }))))
  const { records } = await readResultRecords(dir)
  expect(records.map((r) => r.id).sort()).toEqual([
    'stage-reference-1gpu',
    'stage-reference-1gpu-2',
    'stage-reference-1gpu-3',
  ])
  expect(new Set(records.map((r) => r.name)).size).toBe(3)
})

test('an invalid record is refused with the bad field named, and nothing is written', async () => {
  const record = sampleResultRecord({ kind: 'bogus' as never })
  await expect(writeResultRecord(dir, record)).rejects.toThrow("result record 'stage-reference-1gpu': kind")
  expect(await readdir(dir)).toEqual([])
})

test('a truncated file and a schema-invalid file are reported with their reasons, the good ones still read', async () => {
  await writeResultRecord(dir, sampleResultRecord({ id: 'good' }))
  const text = JSON.stringify(sampleResultRecord({ id: 'cut' }))
  await writeFile(join(dir, 'cut.json'), text.slice(0, text.length / 2))
  await writeFile(join(dir, 'wrong.json'), JSON.stringify({ ...sampleResultRecord({ id: 'wrong' }), state: 'maybe' }))
  await writeFile(join(dir, '.abc.tmp'), 'half a write')
  const { records, invalid } = await readResultRecords(dir)
  expect(records.map((r) => r.id)).toEqual(['good'])
  expect(invalid).toEqual([
    { file: join(dir, 'cut.json'), reason: expect.stringMatching(/^not valid JSON: .*\(cut short while written\?\)$/) },
    { file: join(dir, 'wrong.json'), reason: expect.stringMatching(/^not a valid result record: state:/) },
  ])
})

test('the reason for a file of noise is one line that quotes none of its bytes', () => {
  // V8's message quotes the text around the bad token: here a newline and a C1 control character (a CI run's case),
  // and in a file linked in from elsewhere, whatever that file holds.
  for (const noise of ['\n\u0085', 'TOP SECRET: hunter2'])
    expect(parseResultRecord(noise, '/r/a.json')).toEqual({
      invalid: { file: '/r/a.json', reason: 'not valid JSON: an unexpected character' },
    })
})

test('a monitor summary from a newer monitor keeps its extra fields', async () => {
  const record = sampleResultRecord()
  const summary = {
    version: 1,
    logPath: null,
    startedAt: '2026-11-22T00:00:00.000Z',
    intervalMs: 100,
    durationMs: 1_000,
    sampledGpus: [0],
    requestedGpus: [0],
    gpus: [],
    stages: [],
    energy: { totalJ: null, fromPowerJ: null, sequenceCount: null, jPerSequence: null },
    attribution: { state: 'not-attributed', reason: 'no target' },
    flags: { throttled: [], lostGpus: [], unexpectedGpus: [], idleRequestedGpus: [], foreignProcesses: 0 },
    errors: [],
    sampler: null,
    futureField: { kept: true },
  }
  record.runs[0]!.gpu = summary as never
  await writeResultRecord(dir, record)
  const { records } = await readResultRecords(dir)
  expect((records[0]!.runs[0]!.gpu as unknown as { futureField: unknown }).futureField).toEqual({ kept: true })
})

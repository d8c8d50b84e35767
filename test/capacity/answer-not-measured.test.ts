// Which GPU counts an answer has nothing for, and why. On a 4-GPU host (4 x H200, 2026-11-28) the first kept runs of a
// 1, 2 and 4 GPU measurement read "2 and 4 and 8 GPUs not measured: a k-GPU answer needs a host of k GPUs", though the
// host held 4 GPUs and both arms were still to come: the answer took the host's size from the counts measured so far.
// Now it reads the host's GPUs from the record's NVML provenance (the live line: the counts it plans), and a count the
// host holds reads "not measured yet" while the measurement runs, "not measured here" once it stopped.
import { describe, expect, test } from 'vitest'
import type { CapacityStats } from '../../src/capacity/analyze.ts'
import { capacityAnswer, notMeasuredText } from '../../src/capacity/answer.ts'
import { recordStatus } from '../../src/capacity/record-answer.ts'
import type { ResultRecord } from '../../src/results/schema/index.ts'
import { capacityRecord, H200_1GPU } from '../report/support/capacity.ts'

const h200 = await capacityRecord(H200_1GPU)

/** The record as if measured on a host of `gpus` GPUs (its NVML provenance listing that many), `partial` or not. */
function onHost(gpus: number, partial: boolean): ResultRecord {
  const record = structuredClone(h200)
  const nvml = record.provenance.nvml
  if (!nvml.available) throw new Error('the H200 fixture has NVML provenance')
  const one = nvml.gpus[0]!
  nvml.gpus = Array.from({ length: gpus }, (_, index) => ({ ...one, index, uuid: `GPU-${index}` }))
  if (partial) Object.assign(record, { state: 'partial', kept: { runs: 3, planned: 12 } })
  return record
}

const sentenceOf = (record: ResultRecord) =>
  capacityAnswer(record.stats as unknown as CapacityStats, record.verdicts, recordStatus(record)).sentence

describe('GPU counts without an answer', () => {
  test('an interrupted measurement on a 4-GPU host: 2 and 4 not measured yet, only 8 needs a larger host', () => {
    const sentence = sentenceOf(onHost(4, true))
    expect(sentence).toMatch(/^PROVISIONAL \(3 of 12 runs\): /)
    expect(sentence).toContain(
      '2 and 4 GPUs not measured yet; 8 GPUs not measured: a k-GPU answer needs a host of k GPUs.',
    )
  })

  test('a finished one on a 4-GPU host: 2 and 4 not measured here', () => {
    expect(sentenceOf(onHost(4, false))).toContain(
      '2 and 4 GPUs not measured here; 8 GPUs not measured: a k-GPU answer needs a host of k GPUs.',
    )
  })

  test('on a 1-GPU host every larger count needs a larger host, as before', () => {
    expect(sentenceOf(onHost(1, false))).toContain(
      '2 and 4 and 8 GPUs not measured: a k-GPU answer needs a host of k GPUs.',
    )
  })

  test('without NVML provenance the host is read from the counts measured', () => {
    const record = structuredClone(h200)
    record.provenance.nvml = { available: false, reason: 'libnvidia-ml.so.1 not found' }
    expect(recordStatus(record).hostGpus).toBeUndefined()
    expect(sentenceOf(record)).toContain('2 and 4 and 8 GPUs not measured: a k-GPU answer needs a host of k GPUs.')
  })

  test('the wording per count and state', () => {
    const status = (final: boolean) => ({ final, keptRuns: 1, plannedRuns: 2 })
    expect(notMeasuredText({ notMeasured: [2, 4, 8], hostGpus: 4, status: status(false) })).toBe(
      '2 and 4 GPUs not measured yet; 8 GPUs not measured: a k-GPU answer needs a host of k GPUs',
    )
    expect(notMeasuredText({ notMeasured: [2], hostGpus: 8, status: status(true) })).toBe('2 GPUs not measured here')
    expect(notMeasuredText({ notMeasured: [], hostGpus: 2, status: status(true) })).toBe('')
  })
})

import { describe, expect, test } from 'vitest'
import { ClusterError } from '../../src/cluster/errors.ts'
import { HistoryError } from '../../src/history/errors.ts'
import { SinkWriteError } from '../../src/input/file-sink.ts'
import { NvmlError } from '../../src/nvml/errors.ts'
import { CodedError } from '../../src/platform/coded-error.ts'
import { FileRefusedError } from '../../src/platform/regular-file.ts'
import { ReportError } from '../../src/report/errors.ts'
import { ReportJsonError } from '../../src/report/read-json.ts'

describe('one coded-error base', () => {
  test('a code, a message, the cause kept; an Error as any other', () => {
    const cause = new Error('disk')
    const e = new CodedError('SOME_CODE', 'what and where', { cause })
    expect(e).toBeInstanceOf(Error)
    expect([e.code, e.message, e.cause]).toEqual(['SOME_CODE', 'what and where', cause])
  })

  test("every module's coded error is one, with its own name and code", () => {
    const errors = [
      new HistoryError('HISTORY_DAMAGED', 'h.sqlite', 'damaged'),
      new ReportError('REPORT_WRITE', 'not written'),
      new ClusterError('CLUSTER_UNKNOWN_RUN', 'no such run'),
      new ReportJsonError('REPORT_JSON_NEWER', 'summary.json', 3, 'newer'),
      new NvmlError(3, { call: 'nvmlDeviceGetSamples' }),
      new FileRefusedError('a.fa', 'not there', { cause: Object.assign(new Error('x'), { code: 'ENOENT' }) }),
      new SinkWriteError('writing a.fa failed', 'ENOSPC'),
    ]
    for (const e of errors) expect(e).toBeInstanceOf(CodedError)
    expect(errors.map((e) => [e.name, e.code])).toEqual([
      ['HistoryError', 'HISTORY_DAMAGED'],
      ['ReportError', 'REPORT_WRITE'],
      ['ClusterError', 'CLUSTER_UNKNOWN_RUN'],
      ['ReportJsonError', 'REPORT_JSON_NEWER'],
      ['NvmlError', 'NVML_ERROR_NOT_SUPPORTED'],
      ['FileRefusedError', 'ENOENT'],
      ['SinkWriteError', 'ENOSPC'],
    ])
    expect(new SinkWriteError('no code').code).toBeNull()
  })
})

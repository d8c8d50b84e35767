import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { classifyExit, type ExitFacts } from '../../src/pipeline/exit-class.ts'
import { UPSTREAM_EXIT_CODES } from '../../src/pipeline/profiles.ts'

const base: ExitFacts = {
  exitCode: 0,
  signal: null,
  timedOut: false,
  aborted: false,
  sawOom: false,
  exitCodes: UPSTREAM_EXIT_CODES,
}

describe('classifyExit', () => {
  test.each([
    [0, 'completed'],
    [1, 'failed'],
    [2, 'partial'],
    [4, 'oom'],
    [3, 'failed'],
  ] as const)('exit code %i is %s', (exitCode, exitClass) => {
    expect(classifyExit({ ...base, exitCode }).exitClass).toBe(exitClass)
  })

  test('an OOM line with a non-zero exit is oom', () => {
    expect(classifyExit({ ...base, exitCode: 1, sawOom: true }).exitClass).toBe('oom')
  })

  test('an OOM line in a run that exits 0 stays completed (it recovered)', () => {
    expect(classifyExit({ ...base, sawOom: true }).exitClass).toBe('completed')
  })

  test('our timeout wins over the exit code and signal it caused', () => {
    expect(classifyExit({ ...base, exitCode: null, signal: 'SIGTERM', timedOut: true, timeoutMs: 5 })).toEqual({
      exitClass: 'timeout',
      reason: 'timed out after 5 ms',
    })
  })

  test('a caller abort is failed with that reason', () => {
    expect(classifyExit({ ...base, aborted: true })).toEqual({ exitClass: 'failed', reason: 'aborted by the caller' })
  })

  test('a signal we did not send is signal', () => {
    expect(classifyExit({ ...base, exitCode: null, signal: 'SIGSEGV' }).exitClass).toBe('signal')
  })

  test('every combination yields exactly one class with a reason unless completed', () => {
    const facts = fc.record({
      exitCode: fc.option(fc.integer({ min: 0, max: 255 })),
      signal: fc.option(fc.constantFrom('SIGKILL', 'SIGSEGV')),
      timedOut: fc.boolean(),
      aborted: fc.boolean(),
      sawOom: fc.boolean(),
    })
    fc.assert(
      fc.property(facts, (f) => {
        const { exitClass, reason } = classifyExit({ ...f, exitCodes: UPSTREAM_EXIT_CODES })
        expect(reason === null).toBe(exitClass === 'completed')
      }),
    )
  })
})

import fc from 'fast-check'
import { expect, test } from 'vitest'
import { explainProbeFailure } from '../../src/doctor/probe-failure.ts'

const TIMEOUT_MS = 60_000
const failed = (stderr: string) => ({ exitCode: 1, stderr, timedOut: false })

const TRACEBACK = [
  'Traceback (most recent call last):',
  '  File "<string>", line 1, in <module>',
  '  File "/opt/virnucpro/virnucpro/cli/main.py", line 12, in <module>',
  '    from Bio.Align import _aligncore',
  "ImportError: cannot import name '_aligncore' from 'Bio.Align' (/opt/venv/lib/python3.12/site-packages/Bio/Align/__init__.py)",
]
const EXCEPTION = TRACEBACK.at(-1)!

test('the exception line, not a frame, not what was printed after it', () => {
  const stderr = [...TRACEBACK, '[W CUDAAllocatorConfig.h] shutdown warning', ''].join('\n')
  expect(explainProbeFailure(failed(stderr), TIMEOUT_MS)).toBe(EXCEPTION)
})

test('a chained traceback: its first exception, the cause', () => {
  const stderr = [
    ...TRACEBACK,
    '',
    'During handling of the above exception, another exception occurred:',
    '',
    'Traceback (most recent call last):',
    '  File "/opt/virnucpro/virnucpro/__init__.py", line 3, in <module>',
    "RuntimeError: virnucpro needs biopython's compiled aligner",
  ].join('\n')
  expect(explainProbeFailure(failed(stderr), TIMEOUT_MS)).toBe(EXCEPTION)
})

test('no traceback: the last stderr line; nothing at all: the exit code', () => {
  expect(explainProbeFailure(failed('first\nSegmentation fault\n'), TIMEOUT_MS)).toBe('Segmentation fault')
  expect(explainProbeFailure({ exitCode: 139, stderr: '', timedOut: false }, TIMEOUT_MS)).toBe('exit code 139')
})

test('a timeout and a failed start say so, whatever stderr holds', () => {
  expect(explainProbeFailure({ exitCode: null, stderr: TRACEBACK.join('\n'), timedOut: true }, 2_500)).toBe(
    'timed out after 2.5 s (killed)',
  )
  expect(
    explainProbeFailure({ exitCode: null, stderr: '', timedOut: false, spawnError: "python not found: 'py'" }, 1),
  ).toBe("python not found: 'py'")
})

test('property: whatever follows the first exception line does not change the answer', () => {
  fc.assert(
    fc.property(fc.array(fc.string({ unit: 'grapheme-ascii' }), { maxLength: 20 }), (after) => {
      const stderr = [...TRACEBACK, ...after].join('\n')
      expect(explainProbeFailure(failed(stderr), TIMEOUT_MS)).toBe(EXCEPTION)
    }),
  )
})

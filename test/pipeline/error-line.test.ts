// The failure line of a run's output: properties over generated output (noise, tracebacks, ERROR log lines on either
// stream), and examples over REAL Python tracebacks (python3 run here, its stderr and stdout read back as lines).
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  lastErrorLine,
  MAX_ERROR_LINE_CHARS,
  type OutputLine,
  type OutputStream,
} from '../../src/pipeline/error-line.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'
import { PYTHON } from './support/fake-profile.ts'
import { prefixed, workerLine } from './support/upstream-format.ts'

const stream = fc.constantFrom<OutputStream>('stdout', 'stderr')
// Noise: lower-case words, no digits (no log timestamp), never `Traceback` nor an `...Error` name.
const noiseText = fc.stringMatching(/^ {0,4}[a-z][a-z .,:=-]{0,40}$/)
const noise = fc.record({ text: noiseText, stream })
const noiseLines = fc.array(noise, { maxLength: 8 })
const exceptionName = fc.constantFrom('ImportError', 'RuntimeError', 'torch.OutOfMemoryError', 'Bio.Align.MyException')
// No leading or trailing blank: the scan trims what it returns.
const message = fc.stringMatching(/^[A-Za-z0-9'_().,/-](?:[A-Za-z0-9 '_().,/-]{0,58}[A-Za-z0-9'_().,/-])?$/)
const frame = fc
  .tuple(fc.stringMatching(/^[a-z_]{1,12}$/), fc.integer({ min: 1, max: 999 }))
  .map(([fn, n]) => [`  File "/opt/x/${fn}.py", line ${n}, in ${fn}`, `    ${fn}()`])

/** A traceback on one stream: header, frames, exception line; the line is what the scan must return. */
const traceback = fc
  .tuple(stream, fc.array(frame, { minLength: 1, maxLength: 4 }), exceptionName, message)
  .map(([s, frames, name, msg]) => {
    const line = `${name}: ${msg}`
    const texts = ['Traceback (most recent call last):', ...frames.flat(), line]
    return { lines: texts.map((text) => ({ text, stream: s })), expected: line }
  })
/** An ERROR (or CRITICAL) line of the VirNucPro log format, main process or worker. */
const errorLog = fc
  .tuple(
    stream,
    message,
    fc.option(fc.integer({ min: 0, max: 7 }), { nil: null }),
    fc.constantFrom('ERROR', 'CRITICAL'),
  )
  .map(([s, msg, worker, level]) => {
    const text = worker === null ? prefixed(msg, 'virnucpro.cli.predict', level) : workerLine(worker, msg, level)
    const expected = worker === null ? msg : `Worker ${worker}: ${msg}`
    return { lines: [{ text, stream: s }], expected }
  })
const errorItem = fc.oneof(traceback, errorLog)

/** Interleaves `other` lines into `ordered` without changing the order of either. */
function interleave(ordered: OutputLine[], other: OutputLine[], picks: boolean[]): OutputLine[] {
  const out: OutputLine[] = []
  let i = 0
  let j = 0
  for (const pick of picks) {
    if (pick && j < other.length) out.push(other[j++]!)
    else if (i < ordered.length) out.push(ordered[i++]!)
  }
  return [...out, ...ordered.slice(i), ...other.slice(j)]
}

describe('lastErrorLine properties', () => {
  test('without tracebacks or ERROR lines it is the last non-empty stderr line, trimmed (null without one)', () => {
    fc.assert(
      fc.property(noiseLines, (lines) => {
        const lastStderr = lines.filter((l) => l.stream === 'stderr' && l.text.trim() !== '').at(-1)
        expect(lastErrorLine(lines)).toBe(lastStderr ? lastStderr.text.trim() : null)
      }),
    )
  })

  test("a traceback's exception line is found whatever noise comes before, after or (other stream) inside it", () => {
    fc.assert(
      fc.property(noiseLines, traceback, noiseLines, fc.array(fc.boolean()), (before, tb, after, picks) => {
        const otherStream = tb.lines[0]!.stream === 'stdout' ? 'stderr' : 'stdout'
        const inside = after.map((l) => ({ ...l, stream: otherStream }) as OutputLine)
        const lines = [...before, ...interleave(tb.lines, inside, picks), ...after]
        expect(lastErrorLine(lines)).toBe(tb.expected)
      }),
    )
  })

  test('of several error lines (exception lines and ERROR log lines), the last one wins', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(noiseLines, errorItem), { minLength: 1, maxLength: 5 }),
        noiseLines,
        (items, end) => {
          const lines = [...items.flatMap(([n, item]) => [...n, ...item.lines]), ...end]
          expect(lastErrorLine(lines)).toBe(items.at(-1)![1].expected)
        },
      ),
    )
  })

  test('an exception-shaped line with no traceback header before it on its stream is not an exception line', () => {
    fc.assert(
      fc.property(noiseLines, exceptionName, message, (lines, name, msg) => {
        const printed: OutputLine = { text: `${name}: ${msg}`, stream: 'stdout' }
        // The header opens a traceback on stderr only; being the last stderr line, it is the fallback's answer.
        const header: OutputLine = { text: 'Traceback (most recent call last):', stream: 'stderr' }
        expect(lastErrorLine([...lines, header, printed])).toBe(header.text)
      }),
    )
  })

  test('never throws; a found line is cut to MAX_ERROR_LINE_CHARS and comes from the output', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ text: fc.string({ maxLength: 700 }), stream })), (lines) => {
        const found = lastErrorLine(lines)
        if (found === null) return
        expect(found.length).toBeLessThanOrEqual(MAX_ERROR_LINE_CHARS)
        const core = found.replace(/^Worker \d+: /, '').replace(/…$/, '')
        expect(lines.some((l) => l.text.includes(core))).toBe(true)
      }),
    )
  })
})

/** Runs python3 with `code`; its stdout and stderr as lines (stdout first: the examples do not depend on the order). */
function python(code: string, env: Record<string, string> = {}): OutputLine[] {
  let stdout = ''
  let stderr = ''
  try {
    stdout = execFileSync(PYTHON, ['-c', code], { env: { ...process.env, ...env }, encoding: 'utf8', stdio: 'pipe' })
  } catch (error) {
    const e = error as { stdout: string; stderr: string }
    stdout = e.stdout
    stderr = e.stderr
  }
  const lines = (text: string, s: OutputStream) => text.split('\n').map((t) => ({ text: t, stream: s }))
  return [...lines(stdout, 'stdout'), ...lines(stderr, 'stderr')]
}

describe('lastErrorLine on real Python output', () => {
  test("the issue's ImportError: a real `from Bio.Align import _aligncore` against a Bio without it", () => {
    const dir = tempDirUntilFileEnd('error-line-')
    mkdirSync(join(dir, 'Bio', 'Align'), { recursive: true })
    writeFileSync(join(dir, 'Bio', '__init__.py'), '')
    writeFileSync(join(dir, 'Bio', 'Align', '__init__.py'), '')
    const lines = python('import sys\nprint("loading")\nfrom Bio.Align import _aligncore', { PYTHONPATH: dir })
    expect(lines.map((l) => l.text)).toContain('Traceback (most recent call last):')
    expect(lastErrorLine(lines)).toBe(
      `ImportError: cannot import name '_aligncore' from 'Bio.Align' (${join(dir, 'Bio', 'Align', '__init__.py')})`,
    )
  })

  test('a chained exception: the last traceback of the chain names the cause the run died of', () => {
    const code = "try:\n    {}['k']\nexcept KeyError:\n    raise RuntimeError('model checkpoint unreadable')"
    const lines = python(code)
    expect(lines.map((l) => l.text)).toContain('During handling of the above exception, another exception occurred:')
    expect(lastErrorLine(lines)).toBe('RuntimeError: model checkpoint unreadable')
  })

  test("logger.exception in VirNucPro's format on stdout, workers chatting on stderr: the exception line", () => {
    const code = [
      'import logging, sys',
      "logging.basicConfig(stream=sys.stdout, format='%(asctime)s - %(name)s - %(levelname)s - %(message)s', level=logging.INFO)",
      "sys.stderr.write('2026-11-22 00:00:00 - Worker 1 - virnucpro.pipeline.gpu_worker - INFO - batch 3 done\\n')",
      "log = logging.getLogger('virnucpro.cli.predict')",
      'try:\n    open("/nonexistent/esm2.pt")\nexcept OSError:\n    log.exception("Pipeline failed")',
      'sys.exit(1)',
    ].join('\n')
    expect(lastErrorLine(python(code))).toBe(
      "FileNotFoundError: [Errno 2] No such file or directory: '/nonexistent/esm2.pt'",
    )
  })

  test('an ERROR log line and no traceback: its message', () => {
    const code = [
      'import logging, sys',
      "logging.basicConfig(stream=sys.stdout, format='%(asctime)s - %(name)s - %(levelname)s - %(message)s')",
      "logging.getLogger('virnucpro.cli.predict').error('Input file not found: sample.fa')",
      "sys.stderr.write('usage hint\\n')",
      'sys.exit(1)',
    ].join('\n')
    expect(lastErrorLine(python(code))).toBe('Input file not found: sample.fa')
  })

  test('no error line of either kind: the last non-empty stderr line', () => {
    const lines = python("import sys\nsys.stderr.write('fatal: CUDA driver too old\\n\\n')\nprint('bye')\nsys.exit(3)")
    expect(lastErrorLine(lines)).toBe('fatal: CUDA driver too old')
  })
})

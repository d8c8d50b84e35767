import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { defaultOfHelp } from '../../src/pipeline/help-default.ts'
import { type HelpOption, joinWrapped, parseHelpOptions } from '../../src/pipeline/help-options.ts'

const fixture = (name: string) => readFileSync(new URL(`../fixtures/help/${name}`, import.meta.url), 'utf8')
const byFlag = (options: HelpOption[], flag: string) => options.find((o) => o.flags.includes(flag))

describe("VirNucPro's click help (test/fixtures/help/virnucpro-predict.txt)", () => {
  const options = parseHelpOptions(fixture('virnucpro-predict.txt'))

  test('finds every option, and nothing from the description under Usage (its examples start lines with -m and --resume)', () => {
    // The 27 options of virnucpro/cli/predict.py's decorators, in their order, and click's own --help.
    expect(options.map((o) => o.flags.at(-1))).toEqual([
      ...['--model-type', '--model-path', '--expected-length', '--output-dir', '--device', '--batch-size'],
      ...['--num-workers', '--keep-intermediate', '--resume', '--force', '--no-progress', '--dnabert-batch-size'],
      ...['--parallel', '--v1-fallback', '--v1-attention', '--gpus', '--esm-batch-size', '--merge-threads'],
      ...['--quiet', '--skip-checkpoint-validation', '--force-resume', '--dataloader-workers', '--pin-memory'],
      ...['--expandable-segments', '--cache-clear-interval', '--no-cuda-streams', '--no-persistent-models', '--help'],
    ])
    expect(options.filter((o) => o.flags.includes('--resume'))).toHaveLength(1)
    expect(byFlag(options, '--resume')?.help).toBe('Resume from checkpoint if available')
  })

  test('every spelling, the placeholder, and help wrapped to the next line joined', () => {
    expect(byFlag(options, '--model-type')).toEqual({
      flags: ['-m', '--model-type'],
      metavar: '[300|500|custom]',
      help: 'Model type to use (300bp, 500bp, or custom)',
      default: null,
    })
    expect(byFlag(options, '--merge-threads')?.flags).toEqual(['-t', '--threads', '--merge-threads'])
    expect(byFlag(options, '--merge-threads')?.metavar).toBe('INTEGER')
    expect(byFlag(options, '--cuda-streams')).toMatchObject({
      flags: ['--cuda-streams', '--no-cuda-streams'],
      metavar: null,
      help: 'Use CUDA streams for I/O overlap (default: enabled)',
      default: 'enabled',
    })
  })

  test("the default as the help states it, and a word broken at its hyphen joined back ('auto-' / 'detect')", () => {
    expect(byFlag(options, '--dnabert-batch-size')?.default).toBe('2048, with BF16: 3072')
    expect(byFlag(options, '--device')?.default).toBe('auto')
    expect(byFlag(options, '--dataloader-workers')?.help).toBe(
      'Number of DataLoader workers (default: auto-detect based on CPU/GPU ratio)',
    )
    expect(byFlag(options, '--dataloader-workers')?.default).toBe('auto-detect based on CPU/GPU ratio')
    expect(byFlag(options, '--resume')?.default).toBeNull()
  })
})

describe("the reference pipeline's argparse help (test/fixtures/help/refpipe-predict.txt)", () => {
  const options = parseHelpOptions(fixture('refpipe-predict.txt'))

  test('finds every option (help included) and no usage line; the placeholder once though argparse repeats it', () => {
    expect(options.map((o) => o.flags.at(-1))).toEqual([
      '--help',
      '--model-type',
      '--output-dir',
      '--force',
      '--keep-intermediate',
      '--batch-size',
      '--dnabert-batch-size',
      '--esm-batch-size',
      '--num-workers',
      '--gpus',
      '--parallel',
      '--no-progress',
      '--device',
      '--model-scale',
      '--precision',
      '--seed',
      '--inject',
      '--cpu-workers',
    ])
    expect(byFlag(options, '-w')).toEqual({
      flags: ['-w', '--num-workers'],
      metavar: 'NUM_WORKERS',
      help: 'DataLoader workers (4)',
      default: '4',
    })
    expect(byFlag(options, '--inject')?.metavar).toBe('NAME=VALUE')
  })

  test("defaults written '(default 500)', 'default: {stem}_predictions', '(0)'; none where the help states none", () => {
    expect(byFlag(options, '-m')?.default).toBe('500')
    expect(byFlag(options, '-o')?.default).toBe('{stem}_predictions')
    expect(byFlag(options, '--seed')?.default).toBe('0')
    expect(byFlag(options, '--model-scale')?.default).toBe('full on a GPU, tiny on the CPU')
    expect(byFlag(options, '--esm-batch-size')?.default).toBeNull()
    expect(byFlag(options, '--gpus')?.default).toBeNull()
  })
})

describe('defaultOfHelp', () => {
  test.each([
    ['workers (default: 4)', '4'],
    ['workers [default: 4]', '4'],
    ['workers (default=4)', '4'],
    ['workers (defaults to 8)', '8'],
    ['token budget, default 2048', '2048'],
    ['Defaults to 0.5. Lower is slower.', '0.5'],
    ['threads; default is auto; see docs', 'auto'],
    ['rows per batch (256)', '256'],
    ['learning rate (1e-3)', '1e-3'],
  ])('%s -> %s', (help, expected) => {
    expect(defaultOfHelp(help)).toBe(expected)
  })

  test.each([
    'Clear CUDA cache every N batches (0 to disable)',
    'worker processes on the CPU (tests)',
    'the default value of the model is used',
    '',
  ])('no default in %j', (help) => {
    expect(defaultOfHelp(help)).toBeNull()
  })
})

describe('odd help texts', () => {
  test('CRLF line ends, tabs, ANSI colour and a heading-less list still read', () => {
    const text = '\u001b[1mOptions:\u001b[0m\r\n  -x, --extra N\tan extra\r\n\t\t\t\tsetting (default: 3)\r\n'
    expect(parseHelpOptions(text)).toEqual([
      { flags: ['-x', '--extra'], metavar: 'N', help: 'an extra setting (default: 3)', default: '3' },
    ])
    expect(parseHelpOptions('  --alone   by itself').map((o) => o.flags)).toEqual([['--alone']])
  })

  test('an Examples section and text at column 0 (an epilog) end the options; a blank line ends an option', () => {
    const text = [
      'options:',
      '  --a A    first',
      '',
      '           not a continuation after a blank line',
      'Epilog text',
      '  --not-an-option here',
      'Examples:',
      '  --b 2    run with b',
    ].join('\n')
    expect(parseHelpOptions(text)).toEqual([{ flags: ['--a'], metavar: 'A', help: 'first', default: null }])
  })

  test('joinWrapped joins a hyphen-broken word without a space, and nothing else', () => {
    expect(joinWrapped(['auto-', 'detect here'])).toBe('auto-detect here')
    expect(joinWrapped(['a range 1 -', '2'])).toBe('a range 1 - 2')
    expect(joinWrapped(['', 'x', '', 'y'])).toBe('x y')
  })
})

// --- property tests ---------------------------------------------------------------------------------------------------

/** A help word: no spaces; never ending in '-' (a wrapped `a-` / `b` reads as `a-b`, as textwrap's breaks are). */
const word = fc.stringMatching(/^[A-Za-z0-9(),.:%'"=/-]{1,12}$/).filter((w) => !w.endsWith('-') && !/default/i.test(w))
const longFlag = fc.stringMatching(/^--[a-z][a-z0-9]{0,6}(-[a-z0-9]{1,6}){0,3}$/)
const shortFlag = fc.stringMatching(/^-[A-Za-z]$/)
const metavar = fc.oneof(fc.constant(null), fc.stringMatching(/^[A-Z][A-Z_]{0,9}$/), fc.constant('{300,500}'))
const defaultValue = fc.oneof(fc.constant(null), fc.stringMatching(/^[a-z0-9][a-z0-9.]{0,5}$/))

interface Generated {
  flags: string[]
  metavar: string | null
  words: string[]
  default: string | null
}

const generatedOption: fc.Arbitrary<Generated> = fc.record({
  flags: fc.tuple(fc.option(shortFlag, { nil: undefined }), longFlag).map(([s, l]) => (s ? [s, l] : [l])),
  metavar,
  words: fc.array(word, { maxLength: 25 }),
  default: defaultValue,
})

/** Wraps words into lines of at most `width` characters (a longer word alone on its line), as textwrap does. */
function wrap(words: readonly string[], width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const w of words) {
    if (line && line.length + 1 + w.length > width) {
      lines.push(line)
      line = w
    } else line = line ? `${line} ${w}` : w
  }
  if (line) lines.push(line)
  return lines
}

/** One option as argparse (`-w N, --workers N` at column 24) or click (`-w, --workers N` at column 34) prints it. */
function render(o: Generated, style: 'argparse' | 'click', width: number): string[] {
  const words = o.default === null ? o.words : [...o.words, `(default: ${o.default})`]
  const invocation =
    style === 'argparse'
      ? o.flags.map((f) => (o.metavar ? `${f} ${o.metavar}` : f)).join(', ')
      : `${o.flags.join(', ')}${o.metavar ? ` ${o.metavar}` : ''}`
  const column = style === 'argparse' ? 24 : 34
  const lines = wrap(words, width)
  const head = `  ${invocation}`
  if (head.length + 2 > column || lines.length === 0) return [head, ...lines.map((l) => `${' '.repeat(column)}${l}`)]
  const [first, ...rest] = lines
  return [`${head.padEnd(column)}${first}`, ...rest.map((l) => `${' '.repeat(column)}${l}`)]
}

const helpText = fc.record({
  options: fc.uniqueArray(generatedOption, { maxLength: 12, selector: (o) => o.flags.at(-1) }),
  style: fc.constantFrom('argparse' as const, 'click' as const),
  width: fc.integer({ min: 12, max: 60 }),
  description: fc.array(fc.stringMatching(/^ {2,4}-{0,2}[a-z0-9 ]{0,30}$/), { maxLength: 4 }),
})

describe('properties', () => {
  test('every generated option is found, with its spellings, placeholder, help and default', () => {
    fc.assert(
      fc.property(helpText, ({ options, style, width, description }) => {
        const usage = style === 'argparse' ? 'usage: prog predict [-h] input' : 'Usage: prog predict [OPTIONS] INPUT'
        // A description under Usage may hold indented lines that start with '-' (click's wrapped examples).
        const text = [usage, ...description, '', 'options:', ...options.flatMap((o) => render(o, style, width))].join(
          '\n',
        )
        const parsed = parseHelpOptions(text)
        expect(parsed).toHaveLength(options.length)
        for (const [i, o] of options.entries()) {
          const words = o.default === null ? o.words : [...o.words, `(default: ${o.default})`]
          expect(parsed[i]).toEqual({
            flags: o.flags,
            metavar: o.metavar,
            help: words.join(' '),
            default: o.default ?? defaultOfHelp(words.join(' ')),
          })
        }
      }),
    )
  })

  test('any string parses without throwing, to well-formed options', () => {
    const fragments = fc.constantFrom(
      '  -x',
      '  --long-flag',
      ' N',
      '  help',
      '(default',
      ')',
      '\t',
      '\r',
      '\n',
      ':',
      '[',
      '{',
    )
    const anyText = fc.oneof(
      fc.string({ maxLength: 400 }),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.array(fc.oneof(fragments, fc.string({ maxLength: 8 })), { maxLength: 60 }).map((parts) => parts.join('')),
    )
    fc.assert(
      fc.property(anyText, (text) => {
        for (const o of parseHelpOptions(text)) {
          expect(o.flags.length).toBeGreaterThan(0)
          for (const f of o.flags) expect(f).toMatch(/^--?[A-Za-z0-9]/)
          expect(typeof o.help).toBe('string')
        }
      }),
    )
  })
})

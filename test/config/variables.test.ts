import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { KNOWN_VARIABLES, readSetting, VARIABLES, type VariableName } from '../../src/config/variables.ts'
import { SettingError } from '../../src/platform/setting-error.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const repo = resolve(import.meta.dirname, '../..')
const dir = tempDirUntilFileEnd('variables-')

describe('the registry of VIRNUCPRO_BENCH_* variables', () => {
  test('names every variable the code reads (grep over the sources, scripts and CI), and nothing else', () => {
    const found = execFileSync(
      'grep',
      [
        '-rhoE',
        '--exclude=variables.ts',
        'VIRNUCPRO_BENCH_[A-Z0-9_]+',
        'src',
        'benchmarks',
        'reporters',
        'scripts',
        'native',
        '.ci',
      ],
      { cwd: repo, encoding: 'utf8' },
    )
    const read = new Set(found.split('\n').filter((name) => name !== '' && name !== 'VIRNUCPRO_BENCH_'))
    expect([...read].filter((name) => !KNOWN_VARIABLES.includes(name))).toEqual([])
    expect(KNOWN_VARIABLES.filter((name) => !read.has(name))).toEqual([])
  })

  test('blank is unset; a value is read trimmed', () => {
    expect(readSetting({ VIRNUCPRO_BENCH_RUNS: '  ' }, 'VIRNUCPRO_BENCH_RUNS')).toBeUndefined()
    expect(readSetting({ VIRNUCPRO_BENCH_RUNS: ' 7 ' }, 'VIRNUCPRO_BENCH_RUNS')).toBe(7)
  })

  test('random values of every variable are read or refused in one line of the shape input: problem; fix', () => {
    const names = Object.keys(VARIABLES) as VariableName[]
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.string({ maxLength: 40 }), (name, raw) => {
        try {
          readSetting({ [name]: raw }, name)
        } catch (error) {
          expect(error).toBeInstanceOf(SettingError)
          const message = (error as Error).message
          expect(message.split('\n')).toHaveLength(1)
          expect(message.startsWith(`${name}='`)).toBe(true)
          expect(message).toMatch(/^[^:]+=.*: .+; .+$/)
        }
      }),
      { numRuns: 500 },
    )
  })
})

describe('paths', () => {
  test('a file where a directory is needed, or nothing where something must be, says what is there', () => {
    const file = join(dir, 'f.txt')
    writeFileSync(file, 'x')
    expect(() => readSetting({ VIRNUCPRO_BENCH_RESULTS_DIR: file }, 'VIRNUCPRO_BENCH_RESULTS_DIR')).toThrow(
      `VIRNUCPRO_BENCH_RESULTS_DIR='${file}': is a file, not a directory; point it at a directory, or unset it`,
    )
    expect(readSetting({ VIRNUCPRO_BENCH_RESULTS_DIR: join(dir, 'new') }, 'VIRNUCPRO_BENCH_RESULTS_DIR')).toBe(
      join(dir, 'new'),
    )
    expect(() => readSetting({ VIRNUCPRO_BENCH_INPUT: join(dir, 'none.fa') }, 'VIRNUCPRO_BENCH_INPUT')).toThrow(
      `VIRNUCPRO_BENCH_INPUT='${join(dir, 'none.fa')}': no such file or directory; point it at a FASTA file`,
    )
    mkdirSync(join(dir, 'd'))
    expect(() => readSetting({ VIRNUCPRO_BENCH_THRESHOLDS: join(dir, 'd') }, 'VIRNUCPRO_BENCH_THRESHOLDS')).toThrow(
      'is a directory, not a file',
    )
  })
})

describe('switches read by others as === 1', () => {
  test('true is refused rather than shown as accepted (its reader would take it as off)', () => {
    expect(() => readSetting({ VIRNUCPRO_BENCH_KEEP_OUTPUTS: 'true' }, 'VIRNUCPRO_BENCH_KEEP_OUTPUTS')).toThrow(
      "VIRNUCPRO_BENCH_KEEP_OUTPUTS='true': only 1 turns this on (anything else is read as off); set VIRNUCPRO_BENCH_KEEP_OUTPUTS=1, or unset it",
    )
  })
})

describe('the A/B arms', () => {
  test('a typo in an arm is named, not dropped', () => {
    const raw = '{"a": {"label": "x", "extraArg": []}, "b": {"label": "y"}}'
    expect(() => readSetting({ VIRNUCPRO_BENCH_AB: raw }, 'VIRNUCPRO_BENCH_AB')).toThrow(
      /: a: Unrecognized key: "extraArg"; /,
    )
    const ok = readSetting({ VIRNUCPRO_BENCH_AB: '{"a": {"label": "x"}, "b": {"label": "y"}}' }, 'VIRNUCPRO_BENCH_AB')
    expect(ok?.b).toEqual({ label: 'y', extraArgs: [], env: {} })
  })
})

describe('GPU count lists (VIRNUCPRO_BENCH_CAPACITY_GPUS, _DIRECT)', () => {
  test('distinct whole numbers >= 1, ascending; anything else refused in one line', () => {
    expect(readSetting({ VIRNUCPRO_BENCH_CAPACITY_GPUS: '4, 1' }, 'VIRNUCPRO_BENCH_CAPACITY_GPUS')).toEqual([1, 4])
    expect(readSetting({ VIRNUCPRO_BENCH_CAPACITY_DIRECT: '4' }, 'VIRNUCPRO_BENCH_CAPACITY_DIRECT')).toEqual([4])
    for (const bad of ['0', '1,1', '2.5', 'four', '1,,2'])
      expect(() => readSetting({ VIRNUCPRO_BENCH_CAPACITY_GPUS: bad }, 'VIRNUCPRO_BENCH_CAPACITY_GPUS')).toThrow(
        /^VIRNUCPRO_BENCH_CAPACITY_GPUS='.*': not distinct whole numbers >= 1, comma-separated; write them in decimal digits, e\.g\. VIRNUCPRO_BENCH_CAPACITY_GPUS=1,4$/,
      )
  })

  test('property: any list of distinct counts the answer compares reads back sorted; any other count is named', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom(1, 2, 4, 8), { minLength: 1, maxLength: 4 }), (counts) => {
        const raw = counts.join(',')
        expect(readSetting({ VIRNUCPRO_BENCH_CAPACITY_GPUS: raw }, 'VIRNUCPRO_BENCH_CAPACITY_GPUS')).toEqual(
          [...counts].sort((a, b) => a - b),
        )
      }),
    )
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 64 }).filter((n) => ![4, 8].includes(n)),
        (other) => {
          expect(() =>
            readSetting({ VIRNUCPRO_BENCH_CAPACITY_GPUS: `1,${other}` }, 'VIRNUCPRO_BENCH_CAPACITY_GPUS'),
          ).toThrow(`${other} is not a GPU count the capacity answer compares (1, 2, 4, 8)`)
        },
      ),
    )
  })
})

describe('settings used as one directory name (VIRNUCPRO_BENCH_TASK, VIRNUCPRO_BENCH_RUN_ID)', () => {
  const ONE_NAME = ['VIRNUCPRO_BENCH_TASK', 'VIRNUCPRO_BENCH_RUN_ID'] as const

  test.for(ONE_NAME)('%s: a value that would leave its folder is refused, saying why', (name) => {
    const refusals: [string, RegExp][] = [
      ['..', /: not a directory name \(\.\. is the folder above\); /],
      ['.', /: not a directory name \(\. is the folder itself\); /],
      ['a/b', /: not a directory name \(a \/ makes it a path\); /],
      ['../work', /: not a directory name \(a \/ makes it a path\); /],
      ['a\u0000b', /: not a directory name \(it holds a control character\); /],
      ['.hidden', /: not a directory name \(it starts with \. or -\); /],
      ['a b', /: not a directory name \(' ' is not a letter, digit, \. _ or -\); /],
      ['x'.repeat(129), /: not a directory name \(over 128 characters\); /],
    ]
    for (const [raw, problem] of refusals) {
      expect(() => readSetting({ [name]: raw }, name), raw).toThrow(SettingError)
      expect(() => readSetting({ [name]: raw }, name), raw).toThrow(problem)
      expect(() => readSetting({ [name]: raw }, name), raw).toThrow(
        /; set it to a directory name \(letters, digits, \. _ -, starting with a letter or digit\), or unset it$/,
      )
    }
    expect(readSetting({ [name]: '  ' }, name)).toBeUndefined()
  })

  test.for(ONE_NAME)('%s, property: a value read is one path component, the same value, inside its folder', (name) => {
    const anyText = fc.oneof(
      fc.string({ maxLength: 140 }),
      fc.stringMatching(/^[A-Za-z0-9._/-]{1,12}$/),
      fc.constantFrom('.', '..', '...', './x', 'x/..', '/', 'a\u0000'),
    )
    fc.assert(
      fc.property(anyText, (raw) => {
        let value: string | undefined
        try {
          value = readSetting({ [name]: raw }, name)
        } catch (error) {
          expect(error).toBeInstanceOf(SettingError)
          return
        }
        if (value === undefined) {
          expect(raw.trim()).toBe('')
          return
        }
        expect(value).toBe(raw.trim())
        const inside = join('/root/work', value)
        expect(dirname(inside)).toBe('/root/work')
        expect(basename(inside)).toBe(value)
        expect(value).not.toMatch(/^\.|\//)
        expect(value.includes('\u0000')).toBe(false)
      }),
      { numRuns: 1000 },
    )
  })

  test.for(ONE_NAME)(
    '%s, property: every name of letters, digits, . _ - starting with a letter or digit is read as it is',
    (name) => {
      fc.assert(
        fc.property(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/), (raw) => {
          expect(readSetting({ [name]: raw }, name)).toBe(raw)
        }),
      )
    },
  )
})

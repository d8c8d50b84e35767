/**
 * Random bytes as a FASTA or a thresholds file, and random values of the settings, never end in a stack trace, an error
 * of the wrong kind, or a "success" that did nothing: each is read, or refused in one line. Most cases run the parsers
 * in-process; a few run the CLI.
 */
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { execa } from 'execa'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { loadThresholds } from '../../src/config/thresholds.ts'
import { KNOWN_VARIABLES } from '../../src/config/variables.ts'
// The suites' check: it adds the parsers of SHARD and SWEEP (read above src/config), as the CLI's doctor does.
import { checkSuiteSettings } from '../../src/engine/settings.ts'
import { FastaFormatError } from '../../src/input/fasta-errors.ts'
import { readFasta } from '../../src/input/fasta-reader.ts'
import { SettingError } from '../../src/platform/setting-error.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const dir = tempDirUntilFileEnd('random-inputs-')
const CLI = resolve(import.meta.dirname, '../../src/cli.ts')
let made = 0
const file = (bytes: Uint8Array) => {
  const path = join(dir, `f${made++}`)
  writeFileSync(path, bytes)
  return path
}
const oneLine = (message: string) => expect(message.split('\n')).toHaveLength(1)

/** Bytes that sometimes look like FASTA (so that both outcomes are drawn), sometimes not at all. */
const fastaLike = fc.oneof(
  fc.uint8Array({ maxLength: 64 }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom('>r', '>r1 x', 'ACGT', 'acgtn', '\n', '\r\n', ' ', '>', 'X'),
        fc.string({ maxLength: 3 }),
      ),
      {
        maxLength: 20,
      },
    )
    .map((parts) => Buffer.from(parts.join(''), 'latin1')),
  fc.constantFrom(Buffer.from([0xff, 0xfe]), Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from([0x1f, 0x8b])),
)

describe('random FASTA bytes', () => {
  test('are read (at least one record) or refused by a FastaFormatError of one line naming the file', async () => {
    await fc.assert(
      fc.asyncProperty(fastaLike, async (bytes) => {
        const path = file(bytes)
        let records = 0
        try {
          records = await readFasta(path, () => {})
        } catch (error) {
          expect(error).toBeInstanceOf(FastaFormatError)
          oneLine((error as Error).message)
          expect((error as Error).message.startsWith(`${path}`)).toBe(true)
          return
        }
        expect(records).toBeGreaterThan(0)
      }),
      { numRuns: 300 },
    )
  })
})

const jsonLike = fc.oneof(
  fc.uint8Array({ maxLength: 48 }),
  fc.json().map((text) => Buffer.from(text)),
  fc
    .dictionary(fc.constantFrom('perf01', 'perf02', 'perf03', 'scalingBands', 'memory', 'perf2'), fc.jsonValue(), {
      maxKeys: 3,
    })
    .map((value) => Buffer.from(JSON.stringify(value))),
  fc
    .constantFrom('{"perf02":{"minUtilPct":70}}', '{"scalingBands":{"4":[3,4]}}')
    .map((text) => Buffer.from(`\uFEFF${text}`)),
)

describe('random thresholds files', () => {
  test('give thresholds or a one-line refusal naming the file, the problem and the fix', () => {
    fc.assert(
      fc.property(jsonLike, (bytes) => {
        const path = file(bytes)
        try {
          loadThresholds({ VIRNUCPRO_BENCH_THRESHOLDS: path })
        } catch (error) {
          expect(error).toBeInstanceOf(SettingError)
          const message = (error as Error).message
          oneLine(message)
          expect(message.startsWith(`VIRNUCPRO_BENCH_THRESHOLDS=${path}: `)).toBe(true)
          expect(message).toMatch(/: .+; .+$/)
        }
      }),
      { numRuns: 400 },
    )
  })
})

const settingName = fc.oneof(
  fc.constantFrom(...KNOWN_VARIABLES.filter((name) => name !== 'VIRNUCPRO_BENCH_INPUT')),
  fc
    .string({ unit: fc.constantFrom('A', 'R', 'U', 'N', 'S', '_'), minLength: 1, maxLength: 6 })
    .map((s) => `VIRNUCPRO_BENCH_${s}`),
)
const settingValue = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('0x10', '1e3', '-1', '0', '1', 'true', 'off', '3/2', '0/2', '{}', '[1]', '1000,10000', 'full', 'cpu'),
)

describe('random settings', () => {
  test('every problem is one line, its variable first, never a throw', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(settingName, settingValue, { maxKeys: 4 }), async (env) => {
        const problems = await checkSuiteSettings(env, { readInput: false })
        for (const { variable, message } of problems) {
          oneLine(message)
          expect(message.startsWith(variable)).toBe(true)
          expect(message).toMatch(/: .+; .+$/)
        }
      }),
      { numRuns: 300 },
    )
  })

  test('the CLI (a few processes): doctor --settings exits 0 exactly when nothing is wrong, else 1 with one line per problem', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(settingName, settingValue, { minKeys: 1, maxKeys: 2 }), async (env) => {
        const problems = await checkSuiteSettings(env, { readInput: false })
        const run = await execa(process.execPath, [CLI, 'doctor', '--settings'], {
          env: { PATH: process.env.PATH ?? '', ...env },
          extendEnv: false,
          reject: false,
        })
        expect(run.exitCode, run.stderr).toBe(problems.length === 0 ? 0 : 1)
        expect(run.stderr).toBe(problems.map((p) => `virnucpro-bench: ${p.message}`).join('\n'))
        expect(`${run.stdout}${run.stderr}`).not.toMatch(/^\s+at /m)
      }),
      { numRuns: 4 },
    )
  })

  test('the CLI (a few processes): fixtures inspect on random bytes prints records, or refuses in one line with exit 3', async () => {
    await fc.assert(
      fc.asyncProperty(fastaLike, async (bytes) => {
        const path = file(bytes)
        const run = await execa(process.execPath, [CLI, 'fixtures', 'inspect', path], { reject: false })
        expect(`${run.stdout}${run.stderr}`).not.toMatch(/^\s+at /m)
        if (run.exitCode === 0) expect(run.stdout).toMatch(/^records: [1-9]\d*$/m)
        else {
          expect(run.exitCode, run.stderr).toBe(3)
          expect(run.stderr.split('\n')).toHaveLength(1)
          expect(run.stderr.startsWith(`virnucpro-bench: fixtures inspect: ${path}`)).toBe(true)
        }
      }),
      { numRuns: 4 },
    )
  })
})

/**
 * Issue #25, inputs and settings: every bad input refused before any work, in one line naming the input, the problem
 * and the fix, with a documented exit code, no stack trace, and nothing of the user's touched. One row per case, each
 * run through the real CLI as a process. (SIGINT/SIGTERM during `fixtures generate`: test/input/cli.test.ts; the
 * gpu project's global setup: test/benchmarks/support/gpu-global-setup.test.ts.)
 */
import { createHash } from 'node:crypto'
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'
import { execa } from 'execa'
import { describe, expect, test } from 'vitest'
import { generateFixture } from '../../src/input/generate.ts'
import { resolveParams } from '../../src/input/presets.ts'
import { skipWithout } from '../support/optional-tools.ts'
import { asOtherUser, CLI, otherUserProblem } from '../support/other-user.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const root = tempDirUntilFileEnd('refusals-inputs-')
const FASTA = '>a\nACGT\n>b\nGGCC\n'

interface Row {
  name: string
  /** Makes the row's files in `dir`; returns the CLI arguments and environment. */
  setup(
    dir: string,
  ): Promise<{ args: string[]; env?: Record<string, string> }> | { args: string[]; env?: Record<string, string> }
  exit: number
  /** The one stderr line, in three parts: what was given, what is wrong, what to do. Absent: no refusal expected. */
  line?: { input: RegExp; problem: RegExp; fix: RegExp }
  /** Files (relative to the row's directory) the command may change; every other file there must stay as it was. */
  mayChange?: RegExp
  /** More to check after the run. */
  after?(dir: string, run: { stdout: string; stderr: string }): void
}

const write = (path: string, data: string | Buffer) => {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, data)
}
const doctor = (env: Record<string, string>) => ({ args: ['doctor', '--settings'], env })
const thresholds = (dir: string, text: string | Buffer) => {
  write(join(dir, 't.json'), text)
  return doctor({ VIRNUCPRO_BENCH_THRESHOLDS: join(dir, 't.json') })
}
const tFile = /VIRNUCPRO_BENCH_THRESHOLDS=\S+t\.json: /
const earlierFixture = async (dir: string, files = 1) =>
  generateFixture(resolveParams('TINY', { files }), join(dir, 'fx'))

const ROWS: Row[] = [
  // Data lost.
  {
    name: "generate into an earlier fixture with the user's NOTES.txt beside it: the fixture is replaced, NOTES.txt kept",
    async setup(dir) {
      await earlierFixture(dir, 2)
      write(join(dir, 'fx/NOTES.txt'), 'my notes')
      return { args: ['fixtures', 'generate', '--preset', 'TINY', '--out', join(dir, 'fx')] }
    },
    exit: 0,
    mayChange: /^fx\/(part-\d+\.fa|manifest\.json)$/,
    after: (dir) => expect(readdirSync(join(dir, 'fx')).sort()).toEqual(['NOTES.txt', 'manifest.json', 'part-001.fa']),
  },
  {
    name: 'generate into a directory with data.csv beside an unrelated {} manifest.json',
    setup(dir) {
      write(join(dir, 'out/data.csv'), 'a,b\n1,2\n')
      write(join(dir, 'out/manifest.json'), '{}')
      return { args: ['fixtures', 'generate', '--preset', 'TINY', '--out', join(dir, 'out')] }
    },
    exit: 3,
    line: {
      input: /^virnucpro-bench: fixtures generate: \S+\/out: /,
      problem: /its manifest\.json is not a virnucpro-bench fixture manifest \(no fixture kind\)/,
      fix: /; choose an empty or new directory for --out$/,
    },
  },
  {
    name: 'generate into a directory of the user with no manifest',
    setup(dir) {
      write(join(dir, 'out/NOTES.txt'), 'mine')
      return { args: ['fixtures', 'generate', '--preset', 'TINY', '--out', join(dir, 'out')] }
    },
    exit: 3,
    line: {
      input: /^virnucpro-bench: fixtures generate: \S+\/out: /,
      problem: /holds 1 file\(s\) \(NOTES\.txt\) and no fixture manifest\.json/,
      fix: /; choose an empty or new directory for --out$/,
    },
  },
  {
    name: "generate over an earlier fixture where a user's file has a name the new one would write",
    async setup(dir) {
      await earlierFixture(dir, 1)
      write(join(dir, 'fx/part-002.fa'), '>mine\nACGT\n')
      return { args: ['fixtures', 'generate', '--preset', 'TINY', '--files', '2', '--out', join(dir, 'fx')] }
    },
    exit: 3,
    line: {
      input: /^virnucpro-bench: fixtures generate: \S+\/fx: /,
      problem: /part-002\.fa is there and is no file of an earlier fixture: it would be overwritten/,
      fix: /; move it away, or choose an empty or new directory for --out$/,
    },
  },
  {
    name: 'generate to a path that is a file',
    setup(dir) {
      write(join(dir, 'out'), 'a file')
      return { args: ['fixtures', 'generate', '--preset', 'TINY', '--out', join(dir, 'out')] }
    },
    exit: 3,
    line: { input: /fixtures generate: \S+\/out: /, problem: /is a file, not a directory/, fix: /; choose an empty/ },
  },
  // Runaway.
  {
    name: 'generate --records 1000000000000: the bytes stated and refused beyond free space',
    setup: (dir) => ({
      args: ['fixtures', 'generate', '--preset', 'TINY', '--records', '1000000000000', '--out', join(dir, 'huge')],
    }),
    exit: 3,
    line: {
      input: /^virnucpro-bench: fixtures generate --records 1000000000000: /,
      problem: /about \d+ TB would be written and [\d.]+ [kMGT]?B are free at \S+\/huge/,
      fix: /; lower --records \(about [\d,]+ fit\), or free space$/,
    },
    after: (dir) => expect(readdirSync(dir)).toEqual([]),
  },
  // Validated, then handed over wrong.
  {
    name: 'VIRNUCPRO_BENCH_INPUT=x.fa holding gzip data: read and accepted (the pipeline gets it decompressed)',
    setup(dir) {
      write(join(dir, 'x.fa'), gzipSync(FASTA))
      return doctor({ VIRNUCPRO_BENCH_INPUT: join(dir, 'x.fa') })
    },
    exit: 0,
    after: (_, run) => expect(run.stdout).toMatch(/^input\s+\S+x\.fa: 2 records in 1 file\(s\), valid$/m),
  },
  {
    name: 'VIRNUCPRO_BENCH_INPUT: the same record id in two parts of a directory',
    setup(dir) {
      write(join(dir, 'in/a.fa'), '>x\nACGT\n')
      write(join(dir, 'in/b.fa'), '>y\nACGT\n>x\nGG\n')
      return doctor({ VIRNUCPRO_BENCH_INPUT: join(dir, 'in') })
    },
    exit: 1,
    line: {
      input: /^virnucpro-bench: VIRNUCPRO_BENCH_INPUT: \S+\/in\/b\.fa:3:2: /,
      problem: /duplicate record ID 'x', already in \S+\/in\/a\.fa: the parts of one input are read as one FASTA/,
      fix: /; rename one of the two records$/,
    },
  },
  // Settings silently ignored.
  {
    name: 'thresholds: a typo inside a section',
    setup: (dir) => thresholds(dir, '{"perf02":{"minUtilPctt":50}}'),
    exit: 1,
    line: {
      input: tFile,
      problem: /perf02\.minUtilPctt is not a threshold \(did you mean perf02\.minUtilPct\?\)/,
      fix: /; rename or remove it/,
    },
  },
  {
    name: 'thresholds: a section that is a number',
    setup: (dir) => thresholds(dir, '{"perf02": 50}'),
    exit: 1,
    line: {
      input: tFile,
      problem: /perf02 must be an object of thresholds, got a number \(50\)/,
      fix: /; write it as "perf02": \{/,
    },
  },
  {
    name: 'thresholds: a section that is a string',
    setup: (dir) => thresholds(dir, '{"memory": "lots"}'),
    exit: 1,
    line: {
      input: tFile,
      problem: /memory must be an object of thresholds, got a string/,
      fix: /; write it as "memory": \{/,
    },
  },
  {
    name: 'thresholds: an inverted scaling band',
    setup: (dir) => thresholds(dir, '{"scalingBands":{"2":[2.0,1.6]}}'),
    exit: 1,
    line: {
      input: tFile,
      problem: /scalingBands\.2 is \[2, 1\.6\]: its low end is above its high end/,
      fix: /; write it as \[low, high\]/,
    },
  },
  {
    name: 'thresholds: an unknown PERF-02 stage name',
    setup: (dir) => thresholds(dir, '{"perf02":{"stages":["ESM2 Feature Extraction"]}}'),
    exit: 1,
    line: {
      input: tFile,
      problem:
        /perf02\.stages\[0\] 'ESM2 Feature Extraction' is not a pipeline stage \(did you mean 'ESM-2 Feature Extraction'\?\)/,
      fix: /; use a stage name as the pipeline logs it: /,
    },
  },
  {
    name: 'VIRNUCPRO_BENCH_RUNS=0x10 (was read as 16 runs)',
    setup: () => doctor({ VIRNUCPRO_BENCH_RUNS: '0x10' }),
    exit: 1,
    line: {
      input: /^virnucpro-bench: VIRNUCPRO_BENCH_RUNS='0x10': /,
      problem: /not a whole number in decimal digits \(hexadecimal is not read\)/,
      fix: /; write it as VIRNUCPRO_BENCH_RUNS=16$/,
    },
  },
  {
    name: 'VIRNUCPRO_BENCH_RUNS=1e3 (was read as 1,000 runs)',
    setup: () => doctor({ VIRNUCPRO_BENCH_RUNS: '1e3' }),
    exit: 1,
    line: {
      input: /VIRNUCPRO_BENCH_RUNS='1e3': /,
      problem: /exponent notation is not read/,
      fix: /; write it as VIRNUCPRO_BENCH_RUNS=1000$/,
    },
  },
  ...['false', 'no', 'off'].map(
    (off): Row => ({
      name: `VIRNUCPRO_BENCH_MATRIX=${off} is read as off (it left the matrix on)`,
      setup: () => doctor({ VIRNUCPRO_BENCH_MATRIX: off }),
      exit: 0,
      after: (_, run) => expect(run.stdout).toMatch(/^settings\s+ok \(set: MATRIX\)$/m),
    }),
  ),
  {
    name: 'VIRNUCPRO_BENCH_MATRIX=maybe',
    setup: () => doctor({ VIRNUCPRO_BENCH_MATRIX: 'maybe' }),
    exit: 1,
    line: {
      input: /VIRNUCPRO_BENCH_MATRIX='maybe': /,
      problem: /not a yes\/no value/,
      fix: /; set it to 0, false, no, off or 1, true, yes, on$/,
    },
  },
  {
    name: 'an unknown VIRNUCPRO_BENCH_* name (a typo of RUNS)',
    setup: () => doctor({ VIRNUCPRO_BENCH_RUN: '5' }),
    exit: 1,
    line: {
      input: /^virnucpro-bench: VIRNUCPRO_BENCH_RUN: /,
      problem: /not a setting virnucpro-bench reads \(did you mean VIRNUCPRO_BENCH_RUNS\?\)/,
      fix: /; rename it to VIRNUCPRO_BENCH_RUNS$/,
    },
  },
  {
    name: 'VIRNUCPRO_BENCH_THRESHOLDS set: accepted, and doctor says report does not read it',
    setup: (dir) => thresholds(dir, '{"perf02":{"minUtilPct":70}}'),
    exit: 0,
    after: (_, run) =>
      expect(run.stdout).toMatch(
        /^note\s+VIRNUCPRO_BENCH_THRESHOLDS=\S+ applies to new runs of the gpu project; report judges each stored record/m,
      ),
  },
  // Stack traces and misread encodings.
  {
    name: 'a UTF-16 FASTA (fixtures inspect)',
    setup(dir) {
      write(join(dir, 'u16.fa'), Buffer.from(`\uFEFF${FASTA}`, 'utf16le'))
      return { args: ['fixtures', 'inspect', join(dir, 'u16.fa')] }
    },
    exit: 3,
    line: {
      input: /^virnucpro-bench: fixtures inspect: \S+u16\.fa: /,
      problem: /the text is UTF-16LE, not ASCII or UTF-8/,
      fix: /; convert it, e\.g\. iconv -f UTF-16 -t UTF-8 '\S+u16\.fa' > converted-copy$/,
    },
  },
  {
    name: 'a UTF-16 FASTA as the input (no byte-order mark)',
    setup(dir) {
      write(join(dir, 'u16.fa'), Buffer.from(FASTA, 'utf16le'))
      return doctor({ VIRNUCPRO_BENCH_INPUT: join(dir, 'u16.fa') })
    },
    exit: 1,
    line: {
      input: /^virnucpro-bench: VIRNUCPRO_BENCH_INPUT: \S+u16\.fa: /,
      problem: /the text is UTF-16LE/,
      fix: /; convert it/,
    },
  },
  {
    name: 'a UTF-8 byte-order mark in the thresholds file: accepted',
    setup: (dir) => thresholds(dir, '\uFEFF{"perf02":{"minUtilPct":70}}'),
    exit: 0,
    after: (_, run) => expect(run.stdout).toMatch(/^settings\s+ok \(set: THRESHOLDS\)$/m),
  },
  // Found on the way.
  {
    name: 'a UTF-8 byte-order mark in a FASTA (a FASTA reader downstream takes it into the first header)',
    setup(dir) {
      write(join(dir, 'bom.fa'), `\uFEFF${FASTA}`)
      return { args: ['fixtures', 'inspect', join(dir, 'bom.fa')] }
    },
    exit: 3,
    line: {
      input: /fixtures inspect: \S+bom\.fa: /,
      problem: /starts with a UTF-8 byte-order mark \(EF BB BF\)/,
      fix: /; remove it, e\.g\. sed /,
    },
  },
  {
    name: 'a bzip2 FASTA as the input',
    setup(dir) {
      write(join(dir, 'x.fa.bz2.fa'), Buffer.from('BZh91AY&SY\u0001\u0002'))
      return doctor({ VIRNUCPRO_BENCH_INPUT: join(dir, 'x.fa.bz2.fa') })
    },
    exit: 1,
    line: {
      input: /VIRNUCPRO_BENCH_INPUT: \S+\.fa: /,
      problem: /holds bzip2-compressed data, and only gzip is read/,
      fix: /; decompress it, or recompress it with gzip$/,
    },
  },
  {
    name: 'UTF-16 thresholds file',
    setup: (dir) => thresholds(dir, Buffer.from('\uFEFF{}', 'utf16le')),
    exit: 1,
    line: { input: tFile, problem: /holds UTF-16LE text, not UTF-8 JSON/, fix: /; save it as UTF-8 text$/ },
  },
  {
    name: 'thresholds: a directory',
    setup(dir) {
      mkdirSync(join(dir, 'd'))
      return doctor({ VIRNUCPRO_BENCH_THRESHOLDS: join(dir, 'd') })
    },
    exit: 1,
    line: {
      input: /VIRNUCPRO_BENCH_THRESHOLDS='\S+\/d': /,
      problem: /is a directory, not a file/,
      fix: /; point it at a JSON file/,
    },
  },
  {
    name: 'a run ID that leaves the results root',
    setup: () => doctor({ VIRNUCPRO_BENCH_RUN_ID: '../elsewhere' }),
    exit: 1,
    line: {
      input: /VIRNUCPRO_BENCH_RUN_ID='\.\.\/elsewhere': /,
      problem: /not a directory name/,
      fix: /; set it to a directory name/,
    },
  },
  {
    name: 'VIRNUCPRO_BENCH_KEEP_OUTPUTS=true (its reader keeps outputs only for 1)',
    setup: () => doctor({ VIRNUCPRO_BENCH_KEEP_OUTPUTS: 'true' }),
    exit: 1,
    line: {
      input: /VIRNUCPRO_BENCH_KEEP_OUTPUTS='true': /,
      problem: /only 1 turns this on/,
      fix: /; set VIRNUCPRO_BENCH_KEEP_OUTPUTS=1, or unset it$/,
    },
  },
  {
    name: 'VIRNUCPRO_BENCH_AB with a typo in an arm (was dropped)',
    setup: () => doctor({ VIRNUCPRO_BENCH_AB: '{"a":{"label":"x","extraArg":["-b","8"]},"b":{"label":"y"}}' }),
    exit: 1,
    line: {
      input: /VIRNUCPRO_BENCH_AB='\{/,
      problem: /a: Unrecognized key: "extraArg"/,
      fix: /; see benchmarks\/ab\.gpu\.bench\.ts/,
    },
  },
  {
    name: 'generate --length-from other.json (the manifest.json beside it was read instead)',
    async setup(dir) {
      await earlierFixture(dir)
      write(join(dir, 'fx/other.json'), '{"lengths": "mine"}')
      return {
        args: [
          'fixtures',
          'generate',
          '--preset',
          'TINY',
          '--length-from',
          join(dir, 'fx/other.json'),
          '--out',
          join(dir, 'o'),
        ],
      }
    },
    exit: 3,
    line: {
      input: /^virnucpro-bench: fixtures generate --length-from: manifest \S+\/fx\/other\.json: /,
      problem: /kind: Invalid option/,
      fix: /; point it at a fixture directory \(DIR\/\), its manifest\.json, or a FASTA file$/,
    },
    after: (dir) => expect(readdirSync(dir)).toEqual(['fx']),
  },
  {
    name: 'fixtures inspect of a directory',
    setup: (dir) => ({ args: ['fixtures', 'inspect', dir] }),
    exit: 3,
    line: {
      input: /^virnucpro-bench: fixtures inspect: \S+: /,
      problem: /cannot open: EISDIR/,
      fix: /; give a readable FASTA file \(plain or gzip\)$/,
    },
  },
  {
    name: 'VIRNUCPRO_BENCH_SHARD out of range',
    setup: () => doctor({ VIRNUCPRO_BENCH_SHARD: '8/8' }),
    exit: 1,
    line: {
      input: /VIRNUCPRO_BENCH_SHARD='8\/8': /,
      problem: /a 0-based index below the count/,
      fix: /; set it to <index>\/<count>/,
    },
  },
]

/** Every file under `dir` with a hash of its bytes. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>()
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name)
      files.set(relative(dir, path), createHash('sha256').update(readFileSync(path)).digest('hex'))
    }
  return files
}

let made = 0
describe('inputs and settings: refused before any work, in one line, nothing of the user touched', () => {
  test.for(ROWS.map((row) => [row.name, row] as const))('%s', async ([, row]) => {
    const dir = join(root, `row${made++}`)
    mkdirSync(dir)
    const { args, env = {} } = await row.setup(dir)
    const before = snapshot(dir)
    // Only the row's own settings: none of the VIRNUCPRO_BENCH_* of whoever runs the tests.
    const clean = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }
    // A runaway (the old --records 1e12) is killed before the test's own timeout.
    const run = await execa(process.execPath, [CLI, ...args], {
      env: clean,
      extendEnv: false,
      reject: false,
      timeout: 25_000,
    })
    const output = `${run.stdout}\n${run.stderr}`
    expect(run.exitCode, output).toBe(row.exit)
    expect(output).not.toMatch(/^\s+at /m)
    if (row.line) {
      expect(run.stderr.split('\n'), run.stderr).toHaveLength(1)
      expect(run.stderr).toMatch(row.line.input)
      expect(run.stderr).toMatch(row.line.problem)
      expect(run.stderr).toMatch(row.line.fix)
    }
    const after = snapshot(dir)
    for (const [path, hash] of before)
      if (!row.mayChange?.test(path)) expect(after.get(path), `${path} was changed`).toBe(hash)
    row.after?.(dir, run)
  })
})

// A directory the user cannot write to: as root (here, in CI containers) only another user is refused, so the CLI runs
// as nobody (test/support/other-user.ts), which must first reach Node and the checkout; as anyone else, chmod is enough.
test('generate --out under a read-only directory: one line, exit 3', async (context) => {
  skipWithout(context, 'other-user', await otherUserProblem())
  const dir = join(root, `ro${made++}`)
  mkdirSync(join(dir, 'ro'), { recursive: true })
  for (const above of [root, dir]) chmodSync(above, 0o755)
  chmodSync(join(dir, 'ro'), 0o555)
  const args = [CLI, 'fixtures', 'generate', '--preset', 'TINY', '--out', join(dir, 'ro', 'fx')]
  const run = await execa(process.execPath, args, { reject: false, ...asOtherUser })
  expect(run.exitCode, run.stderr).toBe(3)
  expect(run.stderr).toBe(
    `virnucpro-bench: fixtures generate: ${join(dir, 'ro', 'fx')}: cannot be written (EACCES on ${join(dir, 'ro')}); choose a directory you can write to for --out`,
  )
  expect(readdirSync(join(dir, 'ro'))).toEqual([])
})

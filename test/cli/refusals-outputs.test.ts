// Issue #25, the outputs half, as a table: every bad input of report, history, slurm and monitor run through the real
// CLI (src/cli.ts, its own process). Each is refused before any work in one stderr line that names the input, the
// problem and the fix, with a documented exit code (2 usage, 3 unusable data) and no stack trace, and the user's files
// are byte for byte as they were (an --out that was refused is not even made). Then the outputs against their
// consumers: github-benchmark.json's range and extra, no empty file for github-action-benchmark, a schemaVersion on
// every JSON report, a job summary cut on a line boundary.
import { createHash } from 'node:crypto'
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { execa } from 'execa'
import { beforeAll, describe, expect, test } from 'vitest'
import { REPORT_SCHEMA_VERSION } from '../../src/report/analyses/build.ts'
import { STEP_SUMMARY_LIMIT_BYTES } from '../../src/report/render/step-summary.ts'
import { ADDON_PATH, useFake } from '../monitor/support/fake.ts'
import { DEMO_DIR } from '../report/support/demo.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const CLI = join(import.meta.dirname, '../../src/cli.ts')
const root = tempDirUntilFileEnd('refusals-')
// Read-only places stop only a user that is not root: as root, those rows run the CLI as nobody.
chmodSync(root, 0o755)
const unprivileged = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}

interface Ran {
  exitCode: number | undefined
  stdout: string
  stderr: string
}

// No Slurm configuration: the cluster rows read the same whether or not this machine has a cluster.
const { SLURM_CONF: _, ...withoutSlurm } = process.env

function cli(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; asNobody?: boolean } = {},
) {
  return execa('node', [CLI, ...args], {
    reject: false,
    cwd: options.cwd ?? root,
    env: { ...withoutSlurm, ...options.env },
    extendEnv: false,
    timeout: 60_000,
    ...(options.asNobody ? unprivileged : {}),
  }) as Promise<Ran>
}

/** What a path holds: file bytes hashed, a directory's entries, or absent. */
function snapshot(path: string): string {
  const info = statSync(path, { throwIfNoEntry: false })
  if (!info) return 'absent'
  if (info.isDirectory()) return `dir:${readdirSync(path).sort().join(',')}`
  return `file:${createHash('sha256').update(readFileSync(path)).digest('hex')}`
}

const at = (...parts: string[]) => join(root, ...parts)
const dir = (...parts: string[]) => {
  mkdirSync(at(...parts), { recursive: true, mode: 0o755 })
  return at(...parts)
}
const file = (name: string, content: string | Uint8Array) => {
  writeFileSync(at(name), content, { mode: 0o644 })
  return at(name)
}

/** The committed demo run (scaling + memory records), as a copy every row may read. */
let demo: string
/** A history holding the demo run. */
let history: string

beforeAll(async () => {
  demo = at('demo')
  cpSync(DEMO_DIR, demo, { recursive: true })
  history = at('history.sqlite')
  const added = await cli(['history', 'add', demo, '--db', history])
  expect(added.exitCode, added.stderr).toBe(0)
  for (const path of [root, demo]) chmodSync(path, 0o755)
})

interface Row {
  case: string
  /** Makes what the row needs; returns the arguments and the paths that must not change. */
  arrange: () => { args: string[]; untouched: string[]; cwd?: string; asNobody?: boolean }
  code: 2 | 3
  /** The one stderr line, after `virnucpro-bench: `: it names the input, the problem and the fix. */
  line: RegExp
}

const ROWS: Row[] = [
  // Green on nothing.
  {
    case: 'report on a directory with 0 records',
    arrange: () => ({ args: ['report', dir('empty'), '--out', at('out-empty')], untouched: [at('out-empty')] }),
    code: 3,
    line: /^report: RESULTS_DIR '\S+\/empty' holds no valid result record: no \.json record files there: give a results\/<runId> directory or a results root holding runs; nothing was written$/,
  },
  {
    case: 'report on a directory of invalid records only',
    arrange: () => {
      const bad = dir('only-invalid')
      writeFileSync(join(bad, 'truncated.json'), '{"schemaVersion": 1, "id": "cut')
      return { args: ['report', bad, '--out', at('out-invalid')], untouched: [at('out-invalid'), bad] }
    },
    code: 3,
    line: /^report: RESULTS_DIR '\S+\/only-invalid' holds no valid result record: only invalid files, e.g. \S+truncated\.json: not valid JSON .*: give a results\/<runId> directory/,
  },
  {
    case: 'report with no directory (in a checkout: its package.json was read as an invalid record)',
    arrange: () => ({
      args: ['report', '--out', at('out-none')],
      cwd: join(import.meta.dirname, '../..'),
      untouched: [at('out-none')],
    }),
    code: 2,
    line: /^report: expected RESULTS_DIR, a results\/<runId> directory or a results root: e\.g\. 'virnucpro-bench report results\/\S+'$/,
  },
  {
    case: 'report --baseline EMPTY --fail-on-regression',
    arrange: () => ({
      args: ['report', demo, '--baseline', dir('empty-base'), '--fail-on-regression', '--out', at('out-base')],
      untouched: [at('out-base')],
    }),
    code: 3,
    line: /^report: --baseline '\S+\/empty-base' holds no valid result record: no \.json record files there: give the results\/<runId> directory of the run to compare with; nothing was written$/,
  },
  {
    case: 'report --fail-on-regression against a baseline with no run group in common',
    arrange: () => {
      const other = dir('other-base')
      cpSync(join(DEMO_DIR, 'memory-reference.json'), join(other, 'memory-reference.json'))
      const args = ['report', demo, '--baseline', other, '--fail-on-regression', '--out', at('out-other')]
      return { args, untouched: [at('out-other')] }
    },
    code: 3,
    line: /^report: --fail-on-regression has nothing to judge: --baseline '\S+\/other-base' shares no run group with RESULTS_DIR \(baseline: none; this run: scaling-reference\/1 GPU, scaling-reference\/2 GPUs\): give a baseline run of the same suites and setups; nothing was written$/,
  },
  {
    case: 'report --fail-on-regression without --baseline',
    arrange: () => ({
      args: ['report', demo, '--fail-on-regression', '--out', at('out-nob')],
      untouched: [at('out-nob')],
    }),
    code: 2,
    line: /^report: --fail-on-regression needs --baseline DIR, the run to compare with$/,
  },
  {
    case: 'history add that would store nothing',
    arrange: () => ({
      args: ['history', 'add', dir('empty-run'), '--db', at('new.sqlite')],
      untouched: [at('new.sqlite')],
    }),
    code: 3,
    line: /^history add: RUN_DIR '\S+\/empty-run' holds no valid result record \(no \.json record files\): give a results\/<runId> directory of a run; nothing was added$/,
  },
  {
    case: 'history list on a 0-byte file',
    arrange: () => ({ args: ['history', 'list', '--db', file('zero.sqlite', '')], untouched: [at('zero.sqlite')] }),
    code: 3,
    line: /^history list: history database \S+\/zero\.sqlite is empty \(0 bytes; a copy that failed\?\): restore it from where it came from, or delete it to start a new history$/,
  },
  {
    case: 'history add to a 0-byte file',
    arrange: () => ({
      args: ['history', 'add', demo, '--db', file('zero-add.sqlite', '')],
      untouched: [at('zero-add.sqlite')],
    }),
    code: 3,
    line: /^history add: history database \S+\/zero-add\.sqlite is empty \(0 bytes; a copy that failed\?\): restore it/,
  },
  {
    case: "history add to another program's SQLite database",
    arrange: () => {
      const db = new DatabaseSync(at('foreign.sqlite'))
      db.exec('CREATE TABLE notes (text TEXT)')
      db.close()
      return { args: ['history', 'add', demo, '--db', at('foreign.sqlite')], untouched: [at('foreign.sqlite')] }
    },
    code: 3,
    line: /^history add: \S+\/foreign\.sqlite is an SQLite database but not a virnucpro-bench history \(it has tables and no schema version\): pass another --db$/,
  },
  {
    case: 'history list on random bytes',
    arrange: () => ({
      args: ['history', 'list', '--db', file('noise.sqlite', Buffer.from('not SQLite at all \u0000\u00ff'.repeat(99)))],
      untouched: [at('noise.sqlite')],
    }),
    code: 3,
    line: /^history list: history database \S+\/noise\.sqlite is not an SQLite database: name a virnucpro-bench history instead \(history add creates one\)$/,
  },
  // Stack traces, now one line each.
  {
    case: 'report --out at an existing file',
    arrange: () => ({ args: ['report', demo, '--out', file('out-file', 'mine\n')], untouched: [at('out-file')] }),
    code: 3,
    line: /^report: --out '\S+\/out-file' is a file, not a directory: give a new or empty directory, or one earlier reports went to; nothing was written$/,
  },
  {
    case: 'report --out in a read-only directory',
    arrange: () => {
      const ro = dir('read-only')
      chmodSync(ro, 0o555)
      return { args: ['report', demo, '--out', join(ro, 'reports')], untouched: [ro], asNobody: true }
    },
    code: 3,
    line: /^report: --out '\S+\/read-only\/reports' cannot be made: '\S+\/read-only' is not writable \(EACCES\): give a new or empty directory/,
  },
  {
    case: "report --out at a directory holding the user's own index.html",
    arrange: () => {
      const site = dir('site')
      writeFileSync(join(site, 'index.html'), '<p>my page</p>')
      return { args: ['report', demo, '--out', site], untouched: [site, join(site, 'index.html')] }
    },
    code: 3,
    line: /^report: --out '\S+\/site' already holds index\.html, which no earlier report wrote .*: give a new or empty directory/,
  },
  {
    case: 'history add to a read-only database (a run already present in it)',
    arrange: () => {
      const ro = at('read-only.sqlite')
      cpSync(history, ro)
      chmodSync(ro, 0o444)
      return { args: ['history', 'add', demo, '--db', ro], untouched: [ro], asNobody: true }
    },
    code: 3,
    line: /^history add: history database \S+\/read-only\.sqlite cannot be written: \S+\/read-only\.sqlite is read-only \(EACCES\): make it writable, or give --db a writable copy; nothing was added$/,
  },
  {
    case: 'history changes --json-file at a directory',
    arrange: () => ({
      args: ['history', 'changes', '--db', history, '--json-file', dir('json-dir')],
      untouched: [at('json-dir')],
    }),
    code: 3,
    line: /^history changes: --json-file '\S+\/json-dir' cannot be written \(.*EISDIR.*\): give a file in a writable directory$/,
  },
  // Cluster.
  {
    case: 'slurm submit --dry-run --nodes 100000 (Slurm takes 1001 by default)',
    arrange: () => ({ args: ['slurm', 'submit', '--dry-run', '--nodes', '100000'], untouched: [] }),
    code: 2,
    line: /^slurm submit: 100000 tasks \(--nodes x partitions\) need array indices 0-99999, above MaxArraySize \d+, (Slurm's default \(scontrol did not answer\)|this cluster's \(scontrol show config\)): give at most \d+ tasks/,
  },
  {
    case: 'slurm submit --dry-run --gpus-per-node 99',
    arrange: () => ({ args: ['slurm', 'submit', '--dry-run', '--gpus-per-node', '99'], untouched: [] }),
    code: 2,
    line: /^slurm submit: --gpus-per-node 99: no node (is built with more than 16 GPUs|of partition \S+ has that many GPUs) .*: give /,
  },
  {
    case: 'slurm submit --dry-run --node-exe /nonexistent/node',
    arrange: () => ({ args: ['slurm', 'submit', '--dry-run', '--node-exe', '/nonexistent/node'], untouched: [] }),
    code: 2,
    line: /^slurm submit: --node-exe '\/nonexistent\/node' is not an executable file here \(ENOENT\): give a path every node has/,
  },
  {
    case: 'slurm submit --nodes -1 (was Node\'s three-line "argument is ambiguous")',
    arrange: () => ({ args: ['slurm', 'submit', '--dry-run', '--nodes', '-1'], untouched: [] }),
    code: 2,
    line: /^slurm submit: --nodes must be an integer >= 1, got '-1'$/,
  },
  {
    case: 'report --out followed by another option',
    arrange: () => ({ args: ['report', demo, '--out', '--fail-on-regression'], untouched: [] }),
    code: 2,
    line: /^report: --out needs a value, got the option '--fail-on-regression': give --out VALUE/,
  },
  {
    case: 'monitor --out at an existing log (it was appended to)',
    arrange: () => ({
      args: ['monitor', '--out', file('gpu.jsonl', '{"kind":"header"}\n'), '--', 'true'],
      untouched: [at('gpu.jsonl')],
    }),
    code: 3,
    line: /^monitor: --out '\S+\/gpu\.jsonl' exists already: give a new file \(a monitor log is never appended to or replaced\)$/,
  },
]

describe('refused before any work: one line naming the input, the problem and the fix; nothing touched', () => {
  test.for(ROWS.map((row) => [row.case, row] as const))('%s', async ([, row]) => {
    const { args, untouched, cwd, asNobody } = row.arrange()
    const before = untouched.map(snapshot)
    const ran = await cli(args, { cwd, asNobody })
    expect(ran.exitCode, ran.stderr).toBe(row.code)
    expect(ran.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m)
    const lines = ran.stderr.split('\n').filter((l) => l !== '')
    expect(lines, ran.stderr).toHaveLength(1)
    expect(lines[0]).toMatch(/^virnucpro-bench: /)
    expect(lines[0]!.slice('virnucpro-bench: '.length)).toMatch(row.line)
    expect(ran.stdout).toBe('')
    expect(untouched.map(snapshot)).toEqual(before)
  })
})

/** The demo's scaling record with one run per GPU count: medians of one run, which have no CI. */
function oneRunDir(): string {
  const one = dir('one-run')
  const record = JSON.parse(readFileSync(join(DEMO_DIR, 'scaling-reference.json'), 'utf8'))
  record.runs = record.runs.filter((r: { label: string }) => r.label.endsWith('#1'))
  writeFileSync(join(one, 'scaling-reference.json'), JSON.stringify(record))
  return one
}

describe('outputs true to their consumers', () => {
  test('github-benchmark.json: range states the real CI (not ± half its width), extra says how many runs and which CI', async () => {
    const ran = await cli(['report', demo, '--out', at('formats')])
    expect(ran.exitCode, ran.stderr).toBe(0)
    const entries = JSON.parse(readFileSync(at('formats', 'github-benchmark.json'), 'utf8'))
    const ranged = entries.filter((e: { range?: string }) => e.range !== undefined)
    expect(ranged.length).toBeGreaterThan(0)
    for (const e of ranged) {
      const [, , low, high] = /^(\d+(?:\.\d+)?)% CI \[(\S+), (\S+)\]$/.exec(e.range) ?? []
      expect(Number(low), e.range).toBeLessThanOrEqual(e.value)
      expect(e.value).toBeLessThanOrEqual(Number(high))
      expect(e.extra).toMatch(/^3 runs, median with 75% CI \(3 runs cannot give 95%\)$/)
    }
  })

  test('one run: no range, and no "CI" in extra', async () => {
    const ran = await cli(['report', oneRunDir(), '--out', at('formats-one')])
    expect(ran.exitCode, ran.stderr).toBe(0)
    const entries = JSON.parse(readFileSync(at('formats-one', 'github-benchmark.json'), 'utf8'))
    const total = entries.find((e: { name: string }) => e.name === 'scaling-reference/1 GPU/total')
    expect(total).toMatchObject({ extra: '1 run, median, no CI' })
    expect(total.range).toBeUndefined()
  })

  test('no figure: no github-benchmark.json (an older one removed), and the report says why', async () => {
    const memory = dir('memory-only')
    cpSync(join(DEMO_DIR, 'memory-reference.json'), join(memory, 'memory-reference.json'))
    const out = dir('formats-none')
    writeFileSync(join(out, 'summary.json'), '{"schemaVersion": 2, "generatedAt": "earlier", "counts": {}}')
    writeFileSync(join(out, 'github-benchmark.json'), '[{"name": "an earlier run", "unit": "ms", "value": 1}]')
    const ran = await cli(['report', memory, '--out', out])
    expect(ran.exitCode, ran.stderr).toBe(0)
    expect(existsSync(join(out, 'github-benchmark.json'))).toBe(false)
    expect(ran.stdout).toContain(
      'gpu-report: github-benchmark.json not written: no figures to chart (github-action-benchmark refuses an empty list)',
    )
  })

  test('every JSON report of ours carries the schemaVersion of its shape', () => {
    for (const name of ['summary.json', 'bottleneck.json', 'perf02.json'])
      expect(JSON.parse(readFileSync(at('formats', name), 'utf8')).schemaVersion, name).toBe(REPORT_SCHEMA_VERSION)
  })

  test('the job summary: at most 1 MiB, cut after a whole table row, never inside a UTF-8 character, saying so', async () => {
    // One valid record and enough invalid ones, with multi-byte names, that summary.md's table of them passes 1 MiB.
    const many = dir('many-invalid')
    cpSync(join(DEMO_DIR, 'scaling-reference.json'), join(many, 'scaling-reference.json'))
    for (let i = 0; i < 9000; i++) writeFileSync(join(many, `résumé-😀-${String(i).padStart(5, '0')}.json`), '{"cut')
    const step = at('step-summary.md')
    const ran = await cli(['report', many, '--out', at('formats-big')], { env: { GITHUB_STEP_SUMMARY: step } })
    expect(ran.exitCode, ran.stderr).toBe(0)
    const bytes = readFileSync(step)
    expect(readFileSync(at('formats-big', 'summary.md')).length).toBeGreaterThan(STEP_SUMMARY_LIMIT_BYTES)
    expect(bytes.length).toBeLessThanOrEqual(STEP_SUMMARY_LIMIT_BYTES)
    expect(new TextDecoder('utf-8', { fatal: true }).decode(bytes)).not.toContain('\uFFFD')
    const lines = bytes.toString('utf8').trimEnd().split('\n')
    expect(lines.at(-1)).toMatch(
      /^_Cut here, after line \d+ of \d+: a job summary holds 1 MiB\. The full report is \S+\/summary\.md \(in the job's artifacts when the workflow uploads them\)\._$/,
    )
    expect(lines.at(-3)).toMatch(/^\| \S+résumé-😀-\d{5}\.json \| not valid JSON .* \|$/)
  })
})

describe("monitor -- COMMAND: the command's output stays the command's", () => {
  const gpus = () => ({ ...useFake({ devices: [{}] }).env, VIRNUCPRO_BENCH_NVML_ADDON: ADDON_PATH })

  test('`monitor -- cmd > out.txt` captures what cmd printed, byte for byte (invalid UTF-8 too); the summary is on stderr', async () => {
    const printf = String.raw`printf 'result \377 caf\303\251\n'`
    const ran = await execa('node', [CLI, 'monitor', '--out', at('m1.jsonl'), '--', 'sh', '-c', printf], {
      env: gpus(),
      encoding: 'buffer',
      stripFinalNewline: false,
      reject: false,
    })
    expect(ran.exitCode).toBe(0)
    expect(Buffer.from(ran.stdout)).toEqual(Buffer.from([...Buffer.from('result '), 0xff, ...Buffer.from(' café\n')]))
    expect(Buffer.from(ran.stderr).toString()).toMatch(/\nGPU monitor: /)
  })

  test('a command SIGKILLed: exit 137, and a line saying so before the summary', async () => {
    const ran = await cli(['monitor', '--out', at('m2.jsonl'), '--', 'sh', '-c', 'kill -9 $$'], { env: gpus() })
    expect(ran.exitCode).toBe(137)
    expect(ran.stderr).toMatch(
      /^virnucpro-bench monitor: sh was killed by SIGKILL after \d+\.\d s \(exit 137\): the summary covers it up to then\nGPU monitor: /m,
    )
  })
})

// Issue #25, the outputs half, as a table: every bad input of report, history, slurm and monitor run through the real
// CLI (src/cli.ts, its own process). Each is refused before any work in one stderr line that names the input, the
// problem and the fix, with a documented exit code (2 usage, 3 unusable data) and no stack trace, and the user's files
// are byte for byte as they were (an --out that was refused is not even made). The outputs against their consumers
// are in outputs-consumers.test.ts.
import { chmodSync, cpSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { beforeAll, describe, expect, test } from 'vitest'
import { DEMO_DIR } from '../report/support/demo.ts'
import { skipWithout } from '../support/optional-tools.ts'
import { otherUserProblem } from '../support/other-user.ts'
import { cliSandbox, snapshot } from './support/cli-sandbox.ts'

const { root, at, dir, file, cli } = cliSandbox('refusals-')

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
    line: /^report: RESULTS_DIR '\S+\/only-invalid' holds no valid result record: only invalid files, e.g. \S+truncated\.json: not valid JSON[: ].*: give a results\/<runId> directory/,
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
  test.for(ROWS.map((row) => [row.case, row] as const))('%s', async ([, row], context) => {
    const { args, untouched, cwd, asNobody } = row.arrange()
    if (asNobody) skipWithout(context, 'other-user', await otherUserProblem())
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

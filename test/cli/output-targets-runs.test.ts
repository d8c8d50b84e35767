// Issue 58: nothing a command writes where the user points it lands inside, or over, a run directory, which is known by
// what it holds (a record, work/state.json, a run journal), not by its name. Each row runs the real CLI (src/cli.ts) on
// real files in a temp directory: a pinned run ID (`pin1`, as VIRNUCPRO_BENCH_RUN_ID=pin1 names it) and a run
// interrupted before any record (only its work/ directory). A refusal is one stderr line, exit 2, naming the option,
// the path, the run directory and what it holds, and every file of the run is byte for byte as it was.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { type RunState, writeRunState } from '../../src/results/run-state.ts'
import { h200Record } from '../capacity/support/gpu-capacity.ts'
import { finishedCapacityDir, interruptedCapacityDir } from '../capacity/support/interrupted-capacity.ts'
import { cliSandbox, snapshot } from './support/cli-sandbox.ts'

const { at, cli } = cliSandbox('output-targets-')

/** Every file under `dir` with its bytes hashed: what must not change. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) out[join(e.parentPath, e.name)] = snapshot(join(e.parentPath, e.name))
  return out
}

const at0 = '2026-11-29T10:00:00.000Z'
const stateOf = (state: RunState['state']): RunState => ({
  format: 1,
  state,
  key: { suite: 'abc' },
  startedAt: at0,
  updatedAt: at0,
  command: ['vitest'],
})

/** The run `capacity` reads (a run ID of its own), a pinned run, and a run cut before its first record. */
let read = ''
const pin1 = at('pin1')
const pin2 = at('pin2')
let journalFile = ''
beforeAll(async () => {
  read = at('results', h200Record('g').provenance.runId)
  await finishedCapacityDir(read)
  // pin1: a finished run under a pinned ID: its record, its journal and its state.
  await finishedCapacityDir(pin1)
  await interruptedCapacityDir(pin1)
  await writeRunState(join(pin1, 'work'), stateOf('finished'))
  journalFile = join(pin1, 'work', 'measurements', readdirSync(join(pin1, 'work', 'measurements'))[0]!)
  // pin2: interrupted before any record or run: its work directory's state and progress ledger, nothing else.
  mkdirSync(join(pin2, 'work', 'progress'), { recursive: true })
  await writeRunState(join(pin2, 'work'), stateOf('interrupted'))
  writeFileSync(join(pin2, 'work', 'progress', '20261129T100000000Z-1.jsonl'), '')
})

/** Runs `args`, expects one refusal line matching `line` with exit 2, and `dir` exactly as it was. */
async function refused(args: string[], dir: string, line: RegExp): Promise<void> {
  const before = tree(dir)
  const ran = await cli(args)
  expect([ran.exitCode, ran.stderr.trim().split('\n').length], ran.stderr).toEqual([2, 1])
  expect(ran.stderr.trim()).toMatch(line)
  expect(tree(dir)).toEqual(before)
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

describe('capacity --json never writes into a run directory known by what it holds', () => {
  test("a pinned run's work/state.json: refused, the state as it was", async () => {
    const target = join(pin1, 'work', 'state.json')
    await refused(
      ['capacity', read, '--json', target],
      pin1,
      new RegExp(
        `^virnucpro-bench: capacity: --json '${esc(target)}' is inside the run directory '${esc(pin1)}' \\(.+\\): there it could replace part of the measurement or be read as one of its files; nothing was written: give a new file outside every run directory, e\\.g\\. \\./capacity-refit\\.json$`,
      ),
    )
  })

  test("a pinned run's journal file (work/measurements/...): refused", async () => {
    await refused(
      ['capacity', read, '--json', journalFile],
      pin1,
      new RegExp(`--json '${esc(journalFile)}' is inside the run directory '${esc(pin1)}'`),
    )
  })

  test('beside the records of a pinned run: refused, nothing added', async () => {
    const target = join(pin1, 'capacity-refit.json')
    await refused(
      ['capacity', read, '--json', target],
      pin1,
      new RegExp(
        `--json '${esc(target)}' is inside the run directory '${esc(pin1)}' \\(capacity-\\S+\\.json, a result record\\)`,
      ),
    )
  })

  test('a run interrupted before any record (only work/): refused, by its state', async () => {
    const target = join(pin2, 'refit.json')
    await refused(
      ['capacity', read, '--json', target],
      pin2,
      new RegExp(
        `--json '${esc(target)}' is inside the run directory '${esc(pin2)}' \\(work/state\\.json, a run's state\\)`,
      ),
    )
  })

  test('ordinary targets outside every run still work, a folder named like a run ID but holding none of one included', async () => {
    const outside = join(at('elsewhere'), 'refit.json')
    mkdirSync(at('elsewhere'), { recursive: true })
    const ok = await cli(['capacity', read, '--json', outside])
    expect(ok.exitCode, ok.stderr).toBe(0)
    expect(JSON.parse(readFileSync(outside, 'utf8')).schemaVersion).toBeGreaterThan(0)
    const lookalike = at('2026-11-29T06-00-00Z-ab12')
    mkdirSync(lookalike)
    const named = await cli(['capacity', read, '--json', join(lookalike, 'refit.json')])
    expect(named.exitCode, named.stderr).toBe(0)
  })
})

describe('report --out and the other commands that write where they are pointed', () => {
  test('report --out into a run directory, or over one: refused, the run as it was', async () => {
    const into = join(pin1, 'reports')
    await refused(
      ['report', read, '--out', into],
      pin1,
      new RegExp(
        `^virnucpro-bench: report: --out '${esc(into)}' is inside the run directory '${esc(pin1)}' \\(.+\\).*: give a directory outside every run directory$`,
      ),
    )
    await refused(
      ['report', read, '--out', pin2],
      pin2,
      new RegExp(`--out '${esc(pin2)}' is the run directory '${esc(pin2)}'`),
    )
    const ok = await cli(['report', read, '--out', at('reports')])
    expect(ok.exitCode, ok.stderr).toBe(0)
  })

  test('history changes --json-file, fixtures --out and monitor --out inside a run: refused', async () => {
    const changes = join(pin1, 'changes.json')
    await refused(
      ['history', 'changes', '--db', at('none.sqlite'), '--json-file', changes],
      pin1,
      new RegExp(`^virnucpro-bench: history changes: --json-file '${esc(changes)}' is inside the run directory`),
    )
    const fixtures = join(pin2, 'fixtures')
    await refused(
      ['fixtures', 'generate', '--preset', 'TINY', '--out', fixtures],
      pin2,
      new RegExp(`fixtures generate: --out '${esc(fixtures)}' is inside the run directory '${esc(pin2)}'`),
    )
    const log = join(pin1, 'work', 'gpu.jsonl')
    await refused(
      ['monitor', '--out', log],
      pin1,
      new RegExp(`monitor: --out '${esc(log)}' is inside the run directory`),
    )
  })
})

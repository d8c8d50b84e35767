// Issue 32, path tricks in a run directory, through the real CLI (src/cli.ts, its own process): `report`, `capacity`
// and `history add` read a results directory through one reader (src/results/store.ts readResultRecords, on
// src/platform/regular-file.ts). Each `*.json` is read as a regular file of a bounded size, never waited on (a FIFO is
// answered at once), links followed only inside the directory; each refused file is named with the kind of problem,
// the valid records beside it still read, and nothing of a refused file's bytes reaches a report or the console.
import { execFileSync } from 'node:child_process'
import {
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { RECORD_MAX_BYTES } from '../../src/results/store.ts'
import { h100RunDirs } from '../capacity/support/gpu-capacity.ts'
import { cliSandbox } from '../cli/support/cli-sandbox.ts'
import { DEMO_DIR } from '../report/support/demo.ts'

const { at, file, cli } = cliSandbox('run-dir-reads-')
/** Less than the test's own 30 s: a command that waits on a FIFO is killed, and the test says it did not end. */
const NO_HANG = { timeoutMs: 20_000 }
const SECRET = 'TOP SECRET: the password is hunter2'

let copies = 0
/** A fresh copy of the committed demo run (a scaling and a memory record, with their monitor logs). */
function demoRun(): string {
  const dir = at(`run-${++copies}`)
  cpSync(DEMO_DIR, dir, { recursive: true })
  return dir
}

const mkfifo = (path: string) => execFileSync('mkfifo', [path])

/** No word of SECRET in any report file or on the console (V8's JSON.parse message quotes a file's first bytes). */
function expectNoSecretShown(out: string, ran: { stdout: string; stderr: string }): void {
  const reports = readdirSync(out).map((name) => readFileSync(join(out, name), 'utf8'))
  const shown = [ran.stdout, ran.stderr, ...reports].join('\n')
  for (const word of ['TOP SECRET', 'password', 'hunter2']) expect(shown).not.toContain(word)
}

/** `report RUN --out OUT`: it must end by itself, and report the demo's two records. */
async function report(run: string, out: string) {
  const ran = await cli(['report', run, '--out', out], NO_HANG)
  expect(ran.exitCode, `did not end by itself, or failed: ${ran.stderr}`).toBe(0)
  expect(ran.stdout).toMatch(/SKIPPED\s+memory/)
  expect(ran.stdout).toMatch(/FAIL\s+scaling/)
  return ran
}

const refusedLine = (stderr: string, name: string) =>
  stderr.split('\n').find((line) => line.includes(`/${name}:`)) ?? `(no line names ${name})`

describe('report', () => {
  test('a *.json that is a FIFO is answered at once (not opened for a writer), named, the records beside it read', async () => {
    const run = demoRun()
    mkfifo(join(run, 'pipe.json'))
    // The same through a link inside the directory: followed, and the FIFO at its end refused as one.
    mkfifo(join(run, 'pipe'))
    symlinkSync('pipe', join(run, 'to-pipe.json'))
    const ran = await report(run, at('out-fifo'))
    for (const name of ['pipe.json', 'to-pipe.json'])
      expect(refusedLine(ran.stderr, name)).toMatch(
        /^virnucpro-bench report: invalid record \S+: a FIFO \(named pipe\), not a regular file: not read$/,
      )
  })

  test('a *.json linked to /dev/zero is refused by name unread; the valid records beside it are reported', async () => {
    const run = demoRun()
    symlinkSync('/dev/zero', join(run, 'zero.json'))
    const ran = await report(run, at('out-zero'))
    expect(refusedLine(ran.stderr, 'zero.json')).toBe(
      `virnucpro-bench report: invalid record ${join(run, 'zero.json')}: a link to '/dev/zero', outside ${run}: links are followed only inside it`,
    )
  })

  test('a file larger than a record may be is refused with its size, unread', async () => {
    const run = demoRun()
    const huge = join(run, 'huge.json')
    writeFileSync(huge, '')
    truncateSync(huge, RECORD_MAX_BYTES + 1) // sparse: no disk used
    const ran = await report(run, at('out-huge'))
    expect(refusedLine(ran.stderr, 'huge.json')).toMatch(
      /: 64 MiB \(67108865 bytes\), more than the 64 MiB such a file may hold: not read$/,
    )
  })

  test('a *.json linked to a file outside is refused, and none of its bytes reaches a report or the console', async () => {
    const run = demoRun()
    symlinkSync(file('secret.txt', `${SECRET}\n`), join(run, 'leak.json'))
    const out = at('out-leak')
    const ran = await report(run, out)
    expect(refusedLine(ran.stderr, 'leak.json')).toMatch(
      /: a link to '\S+\/secret\.txt', outside \S+: links are followed/,
    )
    expectNoSecretShown(out, ran)
  })

  test('a *.json of no JSON inside the directory is named with the kind of problem, never its bytes', async () => {
    const run = demoRun()
    writeFileSync(join(run, 'notes.json'), SECRET)
    const out = at('out-notes')
    const ran = await report(run, out)
    expect(refusedLine(ran.stderr, 'notes.json')).toMatch(/: not valid JSON: an unexpected character$/)
    expectNoSecretShown(out, ran)
  })

  test('a link inside the directory to a record is followed', async () => {
    const run = demoRun()
    mkdirSync(join(run, 'kept'))
    renameSync(join(run, 'memory-reference.json'), join(run, 'kept', 'memory.json'))
    symlinkSync(join('kept', 'memory.json'), join(run, 'memory-reference.json'))
    const ran = await report(run, at('out-linked'))
    expect(ran.stderr).not.toContain('invalid record')
  })

  test("a record's monitor log that is a FIFO is a note, not a wait; one that is no log is named without its bytes", async () => {
    const run = demoRun()
    const record = JSON.parse(readFileSync(join(run, 'scaling-reference.json'), 'utf8'))
    const fifo = join(run, 'monitor', '1-gpu-1.jsonl')
    rmSync(fifo)
    mkfifo(fifo)
    record.runs[1].gpu.logPath = file('secret.jsonl', `${SECRET}\n`)
    writeFileSync(join(run, 'scaling-reference.json'), JSON.stringify(record))
    const out = at('out-logs')
    const ran = await report(run, out)
    // summary.md with its markdown escapes taken out.
    const summary = readFileSync(join(out, 'summary.md'), 'utf8').replaceAll('\\', '')
    expect(summary).toMatch(/monitor log monitor\/1-gpu-1\.jsonl: not read \(a FIFO \(named pipe\), not a regular file/)
    expect(summary).toMatch(/monitor log \S+secret\.jsonl: not read \(\S+secret\.jsonl:1: not JSON \(not valid JSON/)
    expectNoSecretShown(out, ran)
  })
})

describe('capacity and history add read run directories the same way', () => {
  test('capacity: a FIFO record file and a FIFO pipeline log are named, not waited on; the refit is made', async () => {
    const [run] = await h100RunDirs(at('capacity'), ['d'])
    mkfifo(join(run!, 'pipe.json'))
    // Where the record's (moved) pipeline log of `1 GPU, 1,000 seqs run 2` is looked for.
    const log = join(run!, 'work', '1595646fcaaa4735', '1-GPU-1-000-seqs-run-2')
    mkdirSync(log, { recursive: true })
    mkfifo(join(log, 'target.log'))
    const ran = await cli(['capacity', run!], NO_HANG)
    expect(ran.exitCode, `did not end by itself, or failed: ${ran.stderr}`).toBe(0)
    expect(ran.stderr).toContain(
      `capacity: left out ${join(run!, 'pipe.json')}: a FIFO (named pipe), not a regular file`,
    )
    expect(ran.stderr).toContain(`left out pipeline log ${join(log, 'target.log')}: a FIFO (named pipe)`)
    expect(ran.stdout).toMatch(/capacity\/2\/break-even/)
  })

  test('history add: a FIFO beside the records is named and skipped; the records are added', async () => {
    const run = demoRun()
    mkfifo(join(run, 'pipe.json'))
    const ran = await cli(['history', 'add', run, '--db', at('history.sqlite')], NO_HANG)
    expect(ran.exitCode, `did not end by itself, or failed: ${ran.stderr}`).toBe(0)
    expect(ran.stderr).toContain(
      `history add: invalid record ${join(run, 'pipe.json')}: a FIFO (named pipe), not a regular file: not read (skipped)`,
    )
    expect(ran.stdout).toMatch(/^run 2026-03-02T09-30-00Z-de30: added 2 record\(s\)/)
  })
})

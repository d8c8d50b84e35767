// Issue 32, stored text on the console and in reports, through the real CLI (src/cli.ts, its own process). A record's
// fields are whatever the file holds: a name with a newline printed raw starts a console line `::error ...`, which
// GitHub Actions runs as a workflow command; a stage name with a NUL put raw NUL bytes into index.html. Every console
// line printed from stored data is one line with its control characters escaped, and no control character reaches a
// report file (text files keep their own newlines and tabs; JSON escapes every one).
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { DEMO_DIR } from '../report/support/demo.ts'
import { cliSandbox } from './support/cli-sandbox.ts'

const { at, cli } = cliSandbox('stored-text-')

const NAME = 'scaling\n::error title=injected::from a record name'
const TITLE = 'Speedup\r\n::warning::from a verdict title'
const HOST = 'demo-host\n::error::from a host name'
/** NUL, ESC (a colour code), NEL (a C1 line break): each from the target's log in the sweep. */
const STAGE = 'Sequence\u0000Chunking\u001b[31m\u0085'

/** Any control character but newline (tab included: a console line must not hold one raw either). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what must not remain.
const CONSOLE_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/
/** In a report file: any control character but the newline and tab of its own layout. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what must not remain.
const FILE_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/

let run: string

beforeAll(() => {
  run = at('run')
  cpSync(DEMO_DIR, run, { recursive: true })
  const file = join(run, 'scaling-reference.json')
  const record = JSON.parse(readFileSync(file, 'utf8'))
  record.name = NAME
  record.verdicts[0].title = TITLE
  record.provenance.host.hostname = HOST
  for (const measured of record.runs)
    for (const stage of measured.run.stages) if (stage.name === 'Sequence Chunking') stage.name = STAGE
  writeFileSync(file, JSON.stringify(record))
})

/** Every console line: none may start a workflow command, none may hold a control character. */
function expectConsoleSafe(ran: { stdout: string; stderr: string }): void {
  for (const line of `${ran.stdout}\n${ran.stderr}`.split('\n')) {
    expect(line).not.toMatch(/^\s*::/)
    expect(line).not.toMatch(CONSOLE_CONTROL)
  }
}

describe('report', () => {
  let ran: { exitCode: number | undefined; stdout: string; stderr: string }
  const out = () => at('out')

  beforeAll(async () => {
    ran = await cli(['report', run, '--out', out()])
    expect(ran.exitCode, ran.stderr).toBe(0)
  })

  test('the console: each stored field on its line, its newline shown escaped, no workflow command', () => {
    expectConsoleSafe(ran)
    expect(ran.stdout.split('\n')).toContainEqual(
      expect.stringMatching(/^gpu-report: FAIL +scaling +scaling\\n::error title=injected::from a record name \| /),
    )
  })

  test('no control character reaches a report file; the JSON files still hold the stored text', () => {
    for (const name of readdirSync(out())) {
      const text = readFileSync(join(out(), name), 'utf8')
      expect({ name, control: FILE_CONTROL.exec(text)?.[0] ?? null }).toEqual({ name, control: null })
    }
    const shown = 'Sequence\\u0000Chunking\\u001b[31m\\u0085'
    expect(readFileSync(join(out(), 'index.html'), 'utf8')).toContain(shown)
    // In JSON the escapes read back as the stored string: nothing stored is lost to the escaping.
    const summary = readFileSync(join(out(), 'summary.json'), 'utf8')
    expect(summary).toContain(shown)
    expect(JSON.stringify(JSON.parse(summary))).toContain(JSON.stringify(STAGE).slice(1, -1))
  })
})

test('history add and list: stored fields print one line each, no workflow command', async () => {
  const db = at('history.sqlite')
  const added = await cli(['history', 'add', run, '--db', db])
  expect(added.exitCode, added.stderr).toBe(0)
  const listed = await cli(['history', 'list', '--db', db])
  expect(listed.exitCode, listed.stderr).toBe(0)
  expect(listed.stdout).toContain(HOST.replace('\n', '\\n'))
  for (const ran of [added, listed]) expectConsoleSafe(ran)
})

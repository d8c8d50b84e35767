import { execa } from 'execa'
import { beforeAll, expect, test } from 'vitest'

let stdout: string[]
beforeAll(async () => {
  const result = await execa('npx', ['vitest', 'run', '--root', 'test/reporters/fixtures/annotations'], {
    reject: false,
    env: { CI: 'true' },
  })
  expect(result.exitCode).toBe(0)
  stdout = result.stdout.split('\n')
})

test('every annotation reaches stdout as one line naming project and test', () => {
  expect(stdout).toContain('[annotation] fixture > measures something | throughput: 123 MB/s')
})

test('a message of several lines prints as several annotation lines: none starts a workflow command', () => {
  // A record's verdicts are one message, a line each (benchmarks/support/annotate-record.ts), and the record's name
  // is stored text.
  const prefix = '[annotation] fixture > annotates verdicts of a record named with a newline | '
  expect(stdout.filter((line) => line.startsWith(prefix))).toEqual([
    `${prefix}scaling`,
    `${prefix}::error title=injected::from a record name:`,
    `${prefix}scaling/total/2gpu: fail 0.632 x`,
  ])
  expect(stdout.filter((line) => line.startsWith('::'))).toEqual([])
})

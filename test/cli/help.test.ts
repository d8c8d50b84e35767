import { readFileSync } from 'node:fs'
import { execa } from 'execa'
import { describe, expect, test } from 'vitest'
import type { CommandSpec } from '../../src/cli/command-spec.ts'
import { programSpec } from '../../src/cli/specs.ts'

// The real CLI as a real process, as a person types it.
const cli = (...args: string[]) => execa('node', ['src/cli.ts', ...args], { reject: false, timeout: 60_000 })

/** Every command and subcommand, with the words that name it. */
function allCommands(spec: CommandSpec = programSpec, words: string[] = []): [string[], CommandSpec][] {
  const subs = Object.entries(spec.subcommands ?? {})
  return [[words, spec], ...subs.flatMap(([name, sub]) => allCommands(sub, [...words, name]))]
}

describe.each(allCommands().map(([words, spec]) => [words.join(' ') || '(program)', words, spec] as const))(
  'virnucpro-bench %s',
  (_label, words, spec) => {
    test.each(['--help', '-h'])('%s: usage, every option with its line, an example; stdout, exit 0', async (flag) => {
      const result = await cli(...words, flag)
      expect(result.exitCode, result.stderr).toBe(0)
      expect(result.stderr).toBe('')
      expect(result.stdout.split('\n')[0]).toBe(
        `usage: ${['virnucpro-bench', ...words].join(' ')}${spec.subcommands ? ' <command>' : ''} [options]${spec.operands ? ` ${spec.operands}` : ''}`,
      )
      const options = { ...spec.options, help: { description: 'show this help and exit' } }
      for (const [name, option] of Object.entries(options))
        expect(result.stdout).toMatch(
          new RegExp(`^  (-\\w, )?--${name}\\b.*  ${escapeRegExp(option.description)}$`, 'm'),
        )
      expect(result.stdout).toMatch(/^examples?:\n {2}virnucpro-bench /m)
      for (const sub of Object.keys(spec.subcommands ?? {}))
        expect(result.stdout).toMatch(new RegExp(`^  ${sub}\\s`, 'm'))
    })
  },
)

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

test('`help fixtures generate` is `fixtures generate --help`', async () => {
  const [viaHelp, viaFlag] = await Promise.all([
    cli('help', 'fixtures', 'generate'),
    cli('fixtures', 'generate', '--help'),
  ])
  expect(viaHelp.exitCode).toBe(0)
  expect(viaHelp.stdout).toBe(viaFlag.stdout)
})

test.each(['--version', '-V'])('%s prints the package version, exit 0', async (flag) => {
  const result = await cli(flag)
  expect(result.exitCode).toBe(0)
  expect(result.stdout).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version)
})

test('no command: the usage on stderr, exit 2', async () => {
  const result = await cli()
  expect(result.exitCode).toBe(2)
  expect(result.stdout).toBe('')
  expect(result.stderr).toMatch(/^usage: virnucpro-bench <command> \[options\]$/m)
})

describe('a mistyped option or command names the nearest valid one: one line on stderr, exit 2', () => {
  test.each([
    [['monitor', '--interval', '50'], "monitor: unknown option '--interval'; did you mean '--interval-ms'?"],
    [
      ['report', '--fail-on-regresion'],
      "report: unknown option '--fail-on-regresion'; did you mean '--fail-on-regression'?",
    ],
    [
      ['fixtures', 'generate', '--preset', 'TINY', '--line-widht', '0'],
      "fixtures generate: unknown option '--line-widht'; did you mean '--line-width'?",
    ],
    [['docter'], "unknown command 'docter'; did you mean 'doctor'?"],
    [
      ['fixtures', 'generat'],
      "fixtures: expected a subcommand generate, sample or inspect, got 'generat'; did you mean 'generate'?",
    ],
    [['--versoin'], "unknown option '--versoin'; did you mean '--version'?"],
  ])('%j', async (args, message) => {
    const result = await cli(...args)
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toBe(`virnucpro-bench: ${message}`)
  })

  test.each([
    [
      ['monitor', '--every', '5'],
      "monitor: unknown option '--every' (options: --interval-ms, --gpus, --out, --json, --help)",
    ],
    [
      ['frobnicate'],
      "unknown command 'frobnicate' (commands: capacity, doctor, fixtures, history, monitor, report, slurm)",
    ],
  ])('nothing near: %j lists what there is', async (args, message) => {
    const result = await cli(...args)
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toBe(`virnucpro-bench: ${message}`)
  })
})

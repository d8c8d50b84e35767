import { expect, test } from 'vitest'
import { type CommandSpec, HelpRequested, parseCommand } from '../../src/cli/command-spec.ts'
import { formatHelp } from '../../src/cli/help.ts'
import { parseMonitorArgs } from '../../src/cli/monitor.ts'
import { programSpec } from '../../src/cli/specs.ts'
import { UsageError } from '../../src/cli/usage-error.ts'

function allSpecs(spec: CommandSpec = programSpec): CommandSpec[] {
  return [spec, ...Object.values(spec.subcommands ?? {}).flatMap((sub) => allSpecs(sub))]
}

test.each(allSpecs().map((spec) => [spec.name || '(program)', spec] as const))(
  '%s: every option its help lists is one the parser takes, and no other',
  (_name, spec) => {
    const help = formatHelp(spec)
    const listed = [...help.matchAll(/^ {2}(?:-\w, )?--([\w-]+)/gm)].map((m) => m[1])
    expect(listed).toEqual([...Object.keys(spec.options), 'help'])
    for (const [name, option] of Object.entries(spec.options)) {
      const args = option.type === 'string' ? [`--${name}`, 'v'] : [`--${name}`]
      expect(parseCommand(spec, args).values).toEqual({ [name]: option.type === 'string' ? 'v' : true })
      if (option.short) expect(parseCommand(spec, [`-${option.short}`, ...args.slice(1)]).values).toHaveProperty(name)
    }
    expect(() => parseCommand(spec, ['--not-an-option'])).toThrow(UsageError)
  },
)

test('--help before `--` wins over anything else on the line: an unknown option, a missing value, a stray word', () => {
  const spec = programSpec.subcommands.monitor
  for (const args of [['--bogus', '--help'], ['--interval-ms', '-h'], ['-h', 'stray'], ['--help=yes']]) {
    expect(() => parseCommand(spec, args)).toThrow(HelpRequested)
  }
  // After `--` it belongs to the wrapped command.
  expect(parseMonitorArgs(['--json', '--', 'python', '--help']).command).toEqual(['python', '--help'])
})

test('other parse errors name the command', () => {
  const report = programSpec.subcommands.report
  expect(() => parseCommand(report, ['--out'])).toThrow(/^report: Option '--out <value>' argument missing/)
  expect(() => parseCommand(programSpec.subcommands.doctor, ['extra'])).toThrow(/^doctor: Unexpected argument 'extra'/)
  expect(() => parseCommand(programSpec.subcommands.monitor, ['-x'])).toThrow(
    "monitor: unknown option '-x' (options: --interval-ms, --gpus, --out, --json, --help)",
  )
})

test('a negative number after a string option is its value, for the option own check to judge', () => {
  const submit = programSpec.subcommands.slurm.subcommands.submit
  expect(parseCommand(submit, ['--nodes', '-1']).values).toEqual({ nodes: '-1' })
  expect(parseCommand(submit, ['--nodes', '-.5', '--dry-run']).values).toEqual({ nodes: '-.5', 'dry-run': true })
})

test('an option where a value belongs is refused in one line that says how to give a dash value', () => {
  const report = programSpec.subcommands.report
  expect(() => parseCommand(report, ['--out', '--history', 'h.sqlite'])).toThrow(
    "report: --out needs a value, got the option '--history': give --out VALUE (a value starting with '-' as --out=--history)",
  )
  expect(parseCommand(report, ['--out=--odd']).values).toEqual({ out: '--odd' })
})

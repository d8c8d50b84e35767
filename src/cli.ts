#!/usr/bin/env node
// The `virnucpro-bench` command. Node >= 22.18 runs this TypeScript file directly (erasable syntax only, no build step).
import { readFileSync } from 'node:fs'
import { type CommandSpec, findSpec, HelpRequested, selectSubcommand } from './cli/command-spec.ts'
import { EXIT_INTERNAL, EXIT_UNUSABLE_DATA, EXIT_USAGE, UnusableDataError } from './cli/exit-codes.ts'
import { formatHelp } from './cli/help.ts'
import { programSpec } from './cli/specs.ts'
import { UsageError } from './cli/usage-error.ts'
// A refusal is one line: a newline or other control character in a value it quotes is shown escaped (`\n`).
import { escapeControls } from './platform/one-line.ts'

type CommandModule = { run(args: string[]): Promise<number> }

/** Each command lives in its own file under src/cli/ and is loaded only when asked for; its spec is in specs.ts. */
const COMMANDS: Record<keyof typeof programSpec.subcommands, () => Promise<CommandModule>> = {
  capacity: () => import('./cli/capacity.ts'),
  doctor: () => import('./cli/doctor.ts'),
  fixtures: () => import('./cli/fixtures.ts'),
  history: () => import('./cli/history.ts'),
  monitor: () => import('./cli/monitor.ts'),
  report: () => import('./cli/report.ts'),
  slurm: () => import('./cli/slurm.ts'),
}

function packageVersion(): string {
  return JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version
}

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0) {
    process.stderr.write(formatHelp(programSpec))
    return 2
  }
  // `help [command ...]` is `command ... --help`.
  if (argv[0] === 'help') throw new HelpRequested(findSpec(programSpec, argv.slice(1)))
  const selected = selectSubcommand(programSpec, argv)
  if (!('spec' in selected)) {
    if (selected.values.version !== true) throw new UsageError(`expected a command before '${argv[0]}'`)
    console.log(packageVersion())
    return 0
  }
  const name = selected.spec.name as keyof typeof COMMANDS
  const help = helpAsked(selected.spec, selected.args)
  if (help) throw new HelpRequested(help)
  return (await COMMANDS[name]()).run(selected.args)
}

/**
 * `<command> [subcommand] --help` answered from the specs alone, before the command's module is loaded (loading one
 * costs ~0.5 s of imports: a help page should not). Null when no --help/-h comes before a `--` (monitor's command).
 */
function helpAsked(spec: CommandSpec, args: readonly string[]): CommandSpec | null {
  const end = args.indexOf('--')
  const own = end < 0 ? args : args.slice(0, end)
  if (!own.some((a) => a === '--help' || a === '-h')) return null
  let found = spec
  for (const word of own) {
    if (word.startsWith('-') || !found.subcommands) break
    const picked = selectSubcommand(found, [word])
    if (!('spec' in picked)) break
    found = picked.spec
  }
  return found
}

try {
  process.exitCode = await main(process.argv.slice(2))
} catch (error) {
  if (error instanceof HelpRequested) {
    process.stdout.write(formatHelp(error.spec))
    process.exitCode = 0
  } else if (error instanceof UsageError) {
    console.error(`virnucpro-bench: ${escapeControls(error.message)}`)
    process.exitCode = EXIT_USAGE
  } else if (error instanceof UnusableDataError) {
    console.error(`virnucpro-bench: ${escapeControls(error.message)}`)
    process.exitCode = EXIT_UNUSABLE_DATA
  } else {
    // A bug, not a user's mistake: one line (the stack only on request), and a code no verdict uses.
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    console.error(
      `virnucpro-bench: internal error: ${message.split('\n')[0]} (VIRNUCPRO_BENCH_DEBUG=1 prints the stack)`,
    )
    if (process.env.VIRNUCPRO_BENCH_DEBUG === '1' && error instanceof Error) console.error(error.stack)
    process.exitCode = EXIT_INTERNAL
  }
}

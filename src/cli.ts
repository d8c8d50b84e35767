#!/usr/bin/env node
// The `virnucpro-bench` command. Node >= 22.18 runs this TypeScript file directly (erasable syntax only, no build step).
import { UsageError } from './cli/usage-error.ts'

type CommandModule = { run(args: string[]): Promise<number> }

/** Each command lives in its own file under src/cli/ and is loaded only when asked for. */
const COMMANDS: Record<string, { summary: string; load: () => Promise<CommandModule> }> = {
  doctor: {
    summary: 'what this machine can do: Node, NVML, driver, GPUs, GPM, python/torch, virnucpro (--json)',
    load: () => import('./cli/doctor.ts'),
  },
  fixtures: {
    summary: 'generate, sample or inspect FASTA fixtures (seeded, streaming, with manifest.json)',
    load: () => import('./cli/fixtures.ts'),
  },
  monitor: {
    summary: 'sample GPUs until Ctrl-C or around a command: per-stage summary, JSONL log (-- COMMAND ...)',
    load: () => import('./cli/monitor.ts'),
  },
  report: {
    summary: 'rebuild all reports (markdown, JSON, HTML charts, CI formats, Perfetto trace) from stored result records',
    load: () => import('./cli/report.ts'),
  },
}

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(10)} ${command.summary}`)
  return ['usage: virnucpro-bench <command> [options]', '', 'commands:', ...lines].join('\n')
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage())
    return name === undefined ? 2 : 0
  }
  const command = COMMANDS[name]
  if (!command) throw new UsageError(`unknown command '${name}' (commands: ${Object.keys(COMMANDS).join(', ')})`)
  return (await command.load()).run(args)
}

try {
  process.exitCode = await main(process.argv.slice(2))
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`virnucpro-bench: ${error.message}`)
    process.exitCode = 2
  } else {
    console.error(error)
    process.exitCode = 1
  }
}

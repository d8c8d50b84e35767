import { allOptions, type CommandSpec, type OptionSpec } from './command-spec.ts'

const PROGRAM = 'virnucpro-bench'

function optionLabel(name: string, option: OptionSpec): string {
  const long = `--${name}${option.type === 'string' ? ` ${option.value ?? 'VALUE'}` : ''}`
  return option.short ? `-${option.short}, ${long}` : long
}

/** Rows of two columns, the second aligned after the widest first. */
function table(rows: [string, string][]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length))
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`)
}

function usageLine(spec: CommandSpec): string {
  const words = [PROGRAM, spec.name].filter(Boolean)
  if (spec.subcommands) words.push('<command>')
  words.push('[options]')
  if (spec.operands) words.push(spec.operands)
  return `usage: ${words.join(' ')}`
}

/** The full help of one command: usage, what it does, its subcommands, every option with its line, examples. Pure. */
export function formatHelp(spec: CommandSpec): string {
  const lines = [usageLine(spec), '', spec.summary]
  if (spec.subcommands) {
    lines.push('', 'commands:')
    lines.push(...table(Object.entries(spec.subcommands).map(([name, sub]) => [name, sub.summary])))
  }
  lines.push('', 'options:')
  lines.push(
    ...table(Object.entries(allOptions(spec)).map(([name, option]) => [optionLabel(name, option), option.description])),
  )
  if (spec.notes?.length) lines.push('', ...spec.notes)
  lines.push('', spec.examples.length > 1 ? 'examples:' : 'example:', ...spec.examples.map((example) => `  ${example}`))
  if (spec.subcommands)
    lines.push('', `'${[PROGRAM, spec.name, '<command>'].filter(Boolean).join(' ')} --help' shows a command's options.`)
  return `${lines.join('\n')}\n`
}

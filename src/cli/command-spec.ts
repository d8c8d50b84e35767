/**
 * One description per command (its options with a line each, operands, examples) that both the parser and `--help`
 * read, so what a command accepts and what its help says cannot drift apart. Parsing is node:util parseArgs; this
 * adds `-h/--help` everywhere and names the nearest valid option or subcommand when one is mistyped.
 */
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util'
import { closestMatch } from '../config/closest.ts'
import { UsageError } from './usage-error.ts'

export interface OptionSpec {
  readonly type: 'string' | 'boolean'
  readonly short?: string
  /** What a string option's value is, shown in help: `N`, `DIR`, `FILE`. */
  readonly value?: string
  /** One line: what it does, its default and its range. */
  readonly description: string
}

export interface CommandSpec {
  /** The words after `virnucpro-bench`: `monitor`, `fixtures generate`; empty for the program itself. */
  readonly name: string
  /** One line: what the command does. */
  readonly summary: string
  /** What follows the options in the usage line: `[RESULTS_DIR]`, `FILE`, `[-- COMMAND ...]`. */
  readonly operands?: string
  /** Whether bare arguments (not options) are accepted. */
  readonly positionals?: boolean
  readonly options: Readonly<Record<string, OptionSpec>>
  /** Commands under this one (`fixtures generate`); their name is `${name} ${key}`. */
  readonly subcommands?: Readonly<Record<string, CommandSpec>>
  /** Whole command lines, as a person would type them. */
  readonly examples: readonly string[]
  /** Extra lines for the help: exit codes, environment. */
  readonly notes?: readonly string[]
}

/** Every command answers `-h`/`--help`; the name is reserved. */
export const HELP_OPTION: OptionSpec = { type: 'boolean', short: 'h', description: 'show this help and exit' }

/** `--help` was asked for: not an error; src/cli.ts prints the spec's help on stdout and exits 0. */
export class HelpRequested extends Error {
  override name = 'HelpRequested'
  readonly spec: CommandSpec
  constructor(spec: CommandSpec) {
    super(`help for '${spec.name}'`)
    this.spec = spec
  }
}

export type OptionValues<O extends Readonly<Record<string, OptionSpec>>> = {
  [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string
}

/** The spec's options with `help`, the shape parseArgs wants. */
export function allOptions(spec: CommandSpec): Record<string, OptionSpec> {
  return { ...spec.options, help: HELP_OPTION }
}

function parseArgsOptions(spec: CommandSpec): ParseArgsOptionsConfig {
  const entries = Object.entries(allOptions(spec)).map(([name, { type, short }]) => [
    name,
    short ? { type, short } : { type },
  ])
  return Object.fromEntries(entries)
}

/** The start of a message about this command (src/cli.ts puts `virnucpro-bench: ` before it). */
function prefix(spec: CommandSpec): string {
  return spec.name === '' ? '' : `${spec.name}: `
}

function unknownOption(spec: CommandSpec, raw: string): UsageError {
  const longNames = Object.keys(allOptions(spec)).map((name) => `--${name}`)
  const near = raw.startsWith('--') ? closestMatch(raw, longNames) : undefined
  const hint = near ? `; did you mean '${near}'?` : ` (options: ${longNames.join(', ')})`
  return new UsageError(`${prefix(spec)}unknown option '${raw}'${hint}`)
}

const isHelpFlag = (arg: string) => arg === '-h' || arg === '--help' || arg.startsWith('--help=')

/**
 * Parses `args` by the spec. @throws HelpRequested for `-h`/`--help` (before any other check, so help always shows);
 * UsageError naming the command for an unknown option (with the nearest known one), a missing value or a stray
 * argument.
 */
export function parseCommand<S extends CommandSpec>(spec: S, args: string[]) {
  const options = parseArgsOptions(spec)
  // Help first, wherever it is before `--`, whatever else is wrong on the line: it is what a lost person types.
  const end = args.indexOf('--')
  if ((end < 0 ? args : args.slice(0, end)).some(isHelpFlag)) throw new HelpRequested(spec)
  // A lenient pass finds unknown options by name (the strict pass only has a sentence for them).
  const loose = parseArgs({ args, options, allowPositionals: true, strict: false, tokens: true })
  for (const token of loose.tokens)
    if (token.kind === 'option' && !Object.hasOwn(options, token.name)) throw unknownOption(spec, token.rawName)
  const joined = joinDashValues(spec, args, loose.tokens)
  try {
    const parsed = parseArgs({ args: joined, options, allowPositionals: spec.positionals === true, strict: true })
    return { values: parsed.values as OptionValues<S['options']>, positionals: parsed.positionals }
  } catch (error) {
    // Node's messages can run over several lines; a refusal is one line.
    throw new UsageError(`${prefix(spec)}${(error as Error).message.split('\n')[0]}`, { cause: error })
  }
}

type ArgsToken = ReturnType<typeof parseArgs>['tokens'] extends (infer T)[] | undefined ? T : never

/**
 * `--nodes -1` as `--nodes=-1`: a negative number is never an option, so its own check (`must be an integer >= 1`)
 * says what is wrong rather than Node's three-line "argument is ambiguous". Any other value starting with '-' after a
 * string option is most likely a forgotten value: refused in one line, with the way to give such a value.
 * @throws UsageError naming the option and what followed it.
 */
function joinDashValues(spec: CommandSpec, args: string[], tokens: readonly ArgsToken[]): string[] {
  const out = [...args]
  for (const token of [...tokens].reverse()) {
    if (token.kind !== 'option' || token.inlineValue !== false || typeof token.value !== 'string') continue
    if (!token.value.startsWith('-')) continue
    if (!/^-(\d|\.\d)/.test(token.value))
      throw new UsageError(
        `${prefix(spec)}${token.rawName} needs a value, got the option '${token.value}': give ${token.rawName} VALUE (a value starting with '-' as ${token.rawName}=${token.value})`,
      )
    out.splice(token.index, 2, `--${token.name}=${token.value}`)
  }
  return out
}

/**
 * For a command made of subcommands: the subcommand the first argument names and the arguments after it, or, when
 * the first argument is an option (`--version`), the parsed options.
 * @throws HelpRequested for `-h`/`--help`; UsageError for a missing or unknown subcommand (naming the nearest one) or
 * an unknown option.
 */
export function selectSubcommand(
  spec: CommandSpec,
  args: string[],
): { spec: CommandSpec; args: string[] } | { values: Record<string, string | boolean | undefined> } {
  const subcommands = spec.subcommands ?? {}
  const names = Object.keys(subcommands)
  const [first, ...rest] = args
  if (first?.startsWith('-')) return { values: parseCommand(spec, [first]).values }
  const chosen = first === undefined ? undefined : subcommands[first]
  if (chosen) return { spec: chosen, args: rest }
  const near = first === undefined ? undefined : closestMatch(first, names)
  const hint = near ? `; did you mean '${near}'?` : ''
  if (spec.name === '')
    throw new UsageError(`unknown command '${first ?? ''}'${hint || ` (commands: ${names.join(', ')})`}`)
  const list = `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`
  throw new UsageError(`${spec.name}: expected a subcommand ${list}, got '${first ?? ''}'${hint}`)
}

/** The spec `words` name under `root` (`['fixtures', 'generate']`), for `virnucpro-bench help fixtures generate`. */
export function findSpec(root: CommandSpec, words: string[]): CommandSpec {
  let spec = root
  for (const word of words) {
    if (!spec.subcommands) throw new UsageError(`help: '${spec.name}' has no subcommand '${word}'`)
    const picked = selectSubcommand(spec, [word])
    if (!('spec' in picked)) throw new UsageError(`help: '${word}' is not a command`)
    spec = picked.spec
  }
  return spec
}

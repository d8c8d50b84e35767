/**
 * Reading a setting's options against the default's command line: a grid point whose every choice the default's
 * command line already makes is the default itself (the CLI's last occurrence of an option wins, as argparse and click
 * read it). A switch pair the default's command line leaves out is at the target's own default, which only its
 * `--help` can tell (grid-help.ts); where it cannot, either side is a setting of its own.
 */
import type { GridChoice } from '../engine/sweep-grid.ts'

/** The value the arguments give `option` (its last occurrence, `--opt V` or `--opt=V`); undefined when absent. */
export function optionValue(args: readonly string[], option: string): string | undefined {
  let value: string | undefined
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === option && i + 1 < args.length) value = args[++i]
    else if (arg.startsWith(`${option}=`)) value = arg.slice(option.length + 1)
  }
  return value
}

/**
 * A flag's state in the arguments: true where `on` is given last, false where `off` (a switch pair's other side) is,
 * undefined where neither is. A flag takes no value, so the argument after it is not read.
 */
export function flagState(args: readonly string[], on: string, off?: string): boolean | undefined {
  let state: boolean | undefined
  for (const arg of args) {
    if (arg === on) state = true
    else if (off !== undefined && arg === off) state = false
  }
  return state
}

/** A switch pair's default by its `on` spelling: true (`--x` is the default), false (`--no-x`), absent: not known. */
export type PairDefaults = ReadonlyMap<string, boolean>

/**
 * Whether the default's command line already makes `choice`; null when that cannot be known (a switch pair that the
 * command line leaves out and whose default the target's help does not state).
 */
export function choiceIsDefault(
  baseArgs: readonly string[],
  choice: GridChoice,
  defaults: PairDefaults,
): boolean | null {
  const { entry, value } = choice
  // null adds nothing: the default's own value of the option, whatever it is.
  if (entry.kind === 'value') return value === null || optionValue(baseArgs, entry.option) === String(value)
  if (entry.kind === 'flag') return (flagState(baseArgs, entry.option) ?? false) === value
  const state = flagState(baseArgs, entry.on, entry.off) ?? defaults.get(entry.on)
  return state === undefined ? null : state === value
}

/**
 * The flags a grid point leaves out (false) that the default's command line gives: a setting takes them away (issue
 * 56: VirNucPro's default is v2.0, `--parallel`, and the 1-GPU grid screens the architecture, so `--parallel` false
 * runs the default's command line without it). Every occurrence goes.
 */
export function flagsTakenAway(baseArgs: readonly string[], choices: readonly GridChoice[]): string[] {
  return choices.flatMap((c) =>
    c.entry.kind === 'flag' && c.value === false && flagState(baseArgs, c.entry.option) ? [c.entry.option] : [],
  )
}

/** The default's arguments with a setting's choices made: its flags taken away, its options added after. */
export function argsWithSetting(
  baseArgs: readonly string[],
  setting: { optionArgs: readonly string[]; takenAway?: readonly string[] },
): string[] {
  const away = new Set(setting.takenAway ?? [])
  return [...baseArgs.filter((a) => !away.has(a)), ...setting.optionArgs]
}

/**
 * Whether a grid point changes nothing on `baseArgs`: every choice already the default's. A choice whose default is
 * not known counts as a change: the point is measured as a setting of its own.
 */
export function sameAsDefault(
  baseArgs: readonly string[],
  choices: readonly GridChoice[],
  defaults: PairDefaults = new Map(),
): boolean {
  return choices.every((c) => choiceIsDefault(baseArgs, c, defaults) === true)
}

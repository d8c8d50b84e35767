/**
 * The grid read beside the target's own `predict --help` (pipeline/help-options.ts), before the screen's first run:
 * an entry the help contradicts (true/false for an option that takes a value, values for a flag, one side of a switch
 * pair written as a flag) is refused, and each switch pair's default state is read from the help (click prints
 * `(default: enabled)` where the author wrote it), so that the side the default already runs is known as the default.
 * An option the help does not show is left to the run: the help reader may miss one.
 */
import { type GridEntry, gridEntries, type SweepGrid } from '../engine/sweep-grid.ts'
import type { HelpOption } from '../pipeline/help-options.ts'
import { flagState, type PairDefaults } from './setting-args.ts'

/** The help's switch pair `--x` / `--no-x`, by its spellings; null when the option is no such pair. */
function pairOf(o: HelpOption): { on: string; off: string } | null {
  const on = o.flags.find((f) => f.startsWith('--') && !f.startsWith('--no-') && o.flags.includes(`--no-${f.slice(2)}`))
  return on === undefined ? null : { on, off: `--no-${on.slice(2)}` }
}

/** A pair's stated default as a state: `enabled`, `true`, `on`, or its own spelling; undefined for anything else. */
function stateOfDefault(text: string, on: string, off: string): boolean | undefined {
  const t = text
    .trim()
    .replace(/^['"]|['"]$/g, '')
    .toLowerCase()
  if (t === on || t === on.slice(2) || /^(true|on|yes|enabled?|1)$/.test(t)) return true
  if (t === off || t === off.slice(2) || /^(false|off|no|disabled?|0)$/.test(t)) return false
  return undefined
}

/** Each switch pair of the help whose default it states, by its `on` spelling. */
export function pairDefaultsOfHelp(options: readonly HelpOption[]): Map<string, boolean> {
  const defaults = new Map<string, boolean>()
  for (const o of options) {
    const pair = pairOf(o)
    const state = pair && o.default !== null ? stateOfDefault(o.default, pair.on, pair.off) : undefined
    if (pair && state !== undefined) defaults.set(pair.on, state)
  }
  return defaults
}

const pairKey = (p: { on: string; off: string }) => `"${p.on}/${p.off}": [true, false]`

/** What the help says against one entry, in words; null when nothing. */
function entryProblem(e: GridEntry, options: readonly HelpOption[]): string | null {
  const spelling = e.kind === 'pair' ? e.on : e.option
  const o = options.find((x) => x.flags.includes(spelling))
  if (!o) return null
  const pair = pairOf(o)
  const shown = `the target's --help lists ${o.flags.join(' / ')}${o.metavar ? ` ${o.metavar}` : ''}`
  if (o.metavar !== null && e.kind !== 'value')
    return `${e.key} takes a value (${shown}): give values, e.g. "${spelling}": [8192, 16384], not true/false`
  if (o.metavar === null && e.kind === 'value')
    return `${e.key} takes no value (${shown}): write ${pair ? pairKey(pair) : `"${spelling}": [true, false]`}`
  if (e.kind === 'flag' && pair) return `${e.key} is one side of a switch pair (${shown}): write ${pairKey(pair)}`
  if (e.kind === 'pair' && !o.flags.includes(e.off)) return `${e.key}: ${shown}, without ${e.off}`
  return null
}

/**
 * The first entry of the grid that the help contradicts, in one line naming it; null when none (or no help was read).
 * @throws SweepGridError for a grid parseSweepGrid would refuse.
 */
export function gridHelpProblem(grid: SweepGrid, options: readonly HelpOption[]): string | null {
  for (const e of gridEntries(grid)) {
    const problem = entryProblem(e, options)
    if (problem) return problem
  }
  return null
}

/**
 * The switch pairs whose default state is not known (the default's command line gives neither side and the help
 * states no default), in words for the study's notes: each side of them is measured as a setting of its own.
 * @param helpProblem why the help was not read, where it was not.
 */
export function unknownDefaults(
  grid: SweepGrid,
  baseArgs: readonly string[],
  defaults: PairDefaults,
  helpProblem: string | null,
): string[] {
  return gridEntries(grid).flatMap((e) =>
    e.kind === 'pair' && flagState(baseArgs, e.on, e.off) === undefined && !defaults.has(e.on)
      ? [
          `${e.key}: the default's command line gives neither and ${helpProblem ? `the target's --help was not read (${helpProblem})` : "the target's --help states no default"}: both sides are measured as settings, neither taken for the default`,
        ]
      : [],
  )
}

/**
 * The parameter-sweep grid: CLI options of the target and the values to try (VIRNUCPRO_BENCH_SWEEP), expanded to every
 * combination. Options with a value, flags and switch pairs (grid-entries.ts), e.g.
 * `{"--esm-batch-size": [8192, 16384, null], "--parallel": [true, false], "--persistent-models/--no-persistent-models": [true, false]}`.
 */
import { escapeControls } from '../platform/one-line.ts'
import type { Configuration } from './configuration.ts'
import {
  argsOfChoice,
  entryOf,
  type GridChoice,
  type GridEntry,
  type GridValue,
  labelOfChoice,
  optionName,
  spellingsOf,
} from './grid-entries.ts'

export type { GridChoice, GridEntry, GridValue } from './grid-entries.ts'

export type SweepGrid = Record<string, readonly GridValue[]>

export class SweepGridError extends Error {
  override name = 'SweepGridError'
}

/** Default: the ESM-2 token budget, the knob that moves the embedding stages most. */
export const DEFAULT_SWEEP_GRID: SweepGrid = { '--esm-batch-size': [8192, 16384, 32768] }

const EXAMPLE = '{"--esm-batch-size": [8192, 16384], "--parallel": [true, false]}'

/**
 * Parses a grid from JSON text; `source` names where it came from in errors.
 * @throws SweepGridError naming the source, the option and what is wrong with it, in one line.
 */
export function parseSweepGrid(text: string, source = 'VIRNUCPRO_BENCH_SWEEP'): SweepGrid {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new SweepGridError(`${source}: not JSON: ${escapeControls((error as Error).message)}`, { cause: error })
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new SweepGridError(
      `${source}: expected an object of option -> list of values, e.g. ${EXAMPLE}, got ${JSON.stringify(value)}`,
    )
  const grid = value as Record<string, unknown>
  gridEntries(grid, source)
  return grid as SweepGrid
}

/**
 * The grid's entries, checked: each a known kind with a non-empty list, no value twice, no option set by two entries.
 * @throws SweepGridError naming the source and the entry.
 */
export function gridEntries(grid: Readonly<Record<string, unknown>>, source = 'the sweep grid'): GridEntry[] {
  const entries: GridEntry[] = []
  for (const [key, values] of Object.entries(grid)) {
    const shownKey = escapeControls(key)
    if (!Array.isArray(values) || values.length === 0)
      throw new SweepGridError(
        `${source}: ${shownKey} needs a non-empty list of values (${key.includes('/') ? '[true, false]' : 'e.g. [8192, 16384], or [true, false] for a flag'}), got ${JSON.stringify(values)}`,
      )
    const entry = entryOf(key, values)
    if ('problem' in entry) throw new SweepGridError(`${source}: ${escapeControls(entry.problem)}`)
    // Each value is a setting labelled by its text (gridPoints): 2048 twice, or 2048 and "2048", are one setting
    // measured twice under one label, which the measurement refuses mid-run (issue 47: a RangeError after doctor said ok).
    const texts = values.map((v) => (v === null ? null : String(v)))
    const twice = texts.find((t, i) => texts.indexOf(t) !== i)
    if (twice !== undefined)
      throw new SweepGridError(
        `${source}: ${shownKey} lists ${twice === null ? 'null' : JSON.stringify(twice)} twice: give each value once`,
      )
    // Two entries that set one option (`-w` and `--w`, `--parallel` beside `--parallel/--no-parallel`) would give it twice.
    const names = spellingsOf(entry).map(optionName)
    for (const other of entries) {
      const shared = spellingsOf(other)
        .map(optionName)
        .find((n) => names.includes(n))
      if (shared !== undefined)
        throw new SweepGridError(
          `${source}: '${escapeControls(other.key)}' and '${shownKey}' both set '${escapeControls(shared)}': give one`,
        )
    }
    entries.push(entry)
  }
  if (entries.length === 0) throw new SweepGridError(`${source}: the grid is empty (e.g. ${EXAMPLE})`)
  return entries
}

/** One combination of the grid: its label, the arguments it adds, and the choice of each entry. */
export interface GridPoint {
  label: string
  args: string[]
  choices: GridChoice[]
}

/** The label of a grid point that adds nothing (every option of it null, not added): the default command line as it is. */
export const NOTHING_ADDED_LABEL = 'no options added'

/**
 * Every combination of the grid, in the grid's order (the first entry's values vary slowest).
 * @throws SweepGridError for a grid parseSweepGrid would refuse.
 */
export function gridPoints(grid: SweepGrid): GridPoint[] {
  let combos: GridChoice[][] = [[]]
  for (const entry of gridEntries(grid))
    combos = combos.flatMap((combo) => grid[entry.key]!.map((value) => [...combo, { entry, value }]))
  return combos.map((choices) => ({
    label: choices.flatMap((c) => labelOfChoice(c) ?? []).join(' ') || NOTHING_ADDED_LABEL,
    args: choices.flatMap(argsOfChoice),
    choices,
  }))
}

/** Every combination of the grid, as configurations derived from `base` (options appended to its extraArgs). */
export function expandGrid(base: Configuration, grid: SweepGrid): Configuration[] {
  return gridPoints(grid).map((p) => ({
    ...base,
    label: p.label,
    extraArgs: [...(base.extraArgs ?? []), ...p.args],
  }))
}

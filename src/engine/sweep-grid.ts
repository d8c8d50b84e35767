/**
 * The parameter-sweep grid: CLI options of the target and the values to try, e.g.
 * `{"--esm-batch-size": [8192, 16384, 32768], "-w": [2, 4]}` (VIRNUCPRO_BENCH_SWEEP), expanded to every combination.
 */
import { escapeControls } from '../platform/one-line.ts'
import type { Configuration } from './configuration.ts'

export type SweepGrid = Record<string, readonly (number | string)[]>

export class SweepGridError extends Error {
  override name = 'SweepGridError'
}

/** Default: the ESM-2 token budget, the knob that moves the embedding stages most. */
export const DEFAULT_SWEEP_GRID: SweepGrid = { '--esm-batch-size': [8192, 16384, 32768] }

/**
 * Parses a grid from JSON text; `source` names where it came from in errors.
 * @throws SweepGridError naming the source, the option and the bad value.
 */
export function parseSweepGrid(text: string, source = 'VIRNUCPRO_BENCH_SWEEP'): SweepGrid {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new SweepGridError(`${source}: not JSON: ${escapeControls((error as Error).message)}`, { cause: error })
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new SweepGridError(`${source}: expected an object of option -> values, got ${JSON.stringify(value)}`)
  const grid: SweepGrid = {}
  for (const [option, values] of Object.entries(value)) {
    if (!/^--?[A-Za-z][\w-]*$/.test(option))
      throw new SweepGridError(`${source}: '${option}' is not a CLI option (e.g. --esm-batch-size)`)
    if (!Array.isArray(values) || values.length === 0)
      throw new SweepGridError(`${source}: ${option} needs a non-empty list of values, got ${JSON.stringify(values)}`)
    const bad = values.find(
      (v) => !((typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v.length > 0)),
    )
    if (bad !== undefined) throw new SweepGridError(`${source}: ${option} has a bad value ${JSON.stringify(bad)}`)
    // Each value is a setting labelled by its text (expandGrid): 2048 twice, or 2048 and "2048", are one setting
    // measured twice under one label, which the measurement refuses mid-run (issue 47: a RangeError after doctor said ok).
    const twice = values.find((v, i) => values.findIndex((w) => String(w) === String(v)) !== i)
    if (twice !== undefined)
      throw new SweepGridError(
        `${source}: ${option} lists ${JSON.stringify(String(twice))} twice: give each value once`,
      )
    const name = optionName(option)
    const same = Object.keys(grid).find((o) => optionName(o) === name)
    if (same !== undefined)
      throw new SweepGridError(`${source}: '${same}' and '${option}' both label their settings '${name}=': give one`)
    grid[option] = values as (number | string)[]
  }
  if (Object.keys(grid).length === 0) throw new SweepGridError(`${source}: the grid is empty`)
  return grid
}

/** An option as a setting's label names it: `--esm-batch-size` -> `esm-batch-size`. */
const optionName = (option: string) => option.replace(/^-+/, '')

/** Every combination of the grid, as configurations derived from `base` (options appended to its extraArgs). */
export function expandGrid(base: Configuration, grid: SweepGrid): Configuration[] {
  let combos: [string, number | string][][] = [[]]
  for (const [option, values] of Object.entries(grid))
    combos = combos.flatMap((combo) => values.map((v) => [...combo, [option, v] as [string, number | string]]))
  return combos.map((combo) => ({
    ...base,
    label: combo.map(([o, v]) => `${optionName(o)}=${v}`).join(' '),
    extraArgs: [...(base.extraArgs ?? []), ...combo.flatMap(([o, v]) => [o, String(v)])],
  }))
}

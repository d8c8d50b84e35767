/**
 * The settings a study measures of its grid, on the screened configuration: every grid point but those that repeat
 * the default's own command line (measured once, as the default), each checked first against the target's help
 * (grid-help.ts) and the default's command line (a flag it gives cannot be taken away), before any run.
 */
import type { Configuration } from '../engine/configuration.ts'
import { gridEntries, gridPoints, type SweepGrid, SweepGridError } from '../engine/sweep-grid.ts'
import type { TargetHelp } from '../pipeline/target-help.ts'
import { gridHelpProblem, pairDefaultsOfHelp, unknownDefaults } from './grid-help.ts'
import type { StudySetting } from './screen.ts'
import { flagTakenAway, sameAsDefault } from './setting-args.ts'

export interface GridSettings {
  settings: StudySetting[]
  /** Grid points that are the default itself. */
  sameAsDefault: number
  /** The switch pairs whose default state is not known, in words (grid-help.ts unknownDefaults). */
  defaultsUnknown: string[]
}

/**
 * The grid's settings on `base`, each labelled by its grid point and adding its options to the default's.
 * @throws SweepGridError naming the entry, for a grid parseSweepGrid refuses, one the help contradicts, or one that
 * asks a setting to leave out a flag the default gives.
 */
export function gridSettings(grid: SweepGrid, base: Configuration, help: TargetHelp): GridSettings {
  const baseArgs = base.extraArgs ?? []
  const options = help.state === 'read' ? help.options : []
  const problem = gridHelpProblem(grid, options) ?? flagTakenAway(baseArgs, gridEntries(grid), grid)
  if (problem) throw new SweepGridError(`the settings study's grid: ${problem}`)
  const defaults = pairDefaultsOfHelp(options)
  const points = gridPoints(grid)
  const settings = points
    .filter((p) => !sameAsDefault(baseArgs, p.choices, defaults))
    .map((p) => ({
      label: p.label,
      optionArgs: p.args,
      config: { ...base, label: p.label, extraArgs: [...baseArgs, ...p.args] },
    }))
  return {
    settings,
    sameAsDefault: points.length - settings.length,
    defaultsUnknown: unknownDefaults(grid, baseArgs, defaults, help.state === 'read' ? null : help.problem),
  }
}

/**
 * The settings a study measures of its grid, on the screened configuration: every grid point but those that repeat
 * the default's own command line (measured once, as the default), each checked first against the target's help
 * (grid-help.ts), before any run; a flag the default gives and a point leaves out is taken away (setting-args.ts).
 */
import type { Configuration } from '../engine/configuration.ts'
import { gridPoints, type SweepGrid, SweepGridError } from '../engine/sweep-grid.ts'
import type { TargetHelp } from '../pipeline/target-help.ts'
import { gridHelpProblem, pairDefaultsOfHelp, unknownDefaults } from './grid-help.ts'
import type { StudySetting } from './screen.ts'
import { flagsTakenAway, sameAsDefault } from './setting-args.ts'
import { withSettingArgs } from './setting-config.ts'

export interface GridSettings {
  settings: StudySetting[]
  /** Grid points that are the default itself. */
  sameAsDefault: number
  /** The switch pairs whose default state is not known, in words (grid-help.ts unknownDefaults). */
  defaultsUnknown: string[]
}

/**
 * The grid's settings on `base`, each labelled by its grid point and adding its options to the default's.
 * @throws SweepGridError naming the entry, for a grid parseSweepGrid refuses or one the help contradicts.
 */
export function gridSettings(grid: SweepGrid, base: Configuration, help: TargetHelp): GridSettings {
  const baseArgs = base.extraArgs ?? []
  const options = help.state === 'read' ? help.options : []
  const problem = gridHelpProblem(grid, options)
  if (problem) throw new SweepGridError(`the settings study's grid: ${problem}`)
  const defaults = pairDefaultsOfHelp(options)
  const points = gridPoints(grid)
  const settings = points
    .filter((p) => !sameAsDefault(baseArgs, p.choices, defaults))
    .map((p) => {
      const setting = { label: p.label, optionArgs: p.args, takenAway: flagsTakenAway(baseArgs, p.choices) }
      return { ...setting, config: withSettingArgs(base, setting, p.label) }
    })
  return {
    settings,
    sameAsDefault: points.length - settings.length,
    defaultsUnknown: unknownDefaults(grid, baseArgs, defaults, help.state === 'read' ? null : help.problem),
  }
}

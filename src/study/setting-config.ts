/**
 * A setting's configuration: the default's with the setting's arguments (setting-args.ts argsWithSetting), and, where
 * the default asks for an architecture, the one those arguments ask for (issue 56: a setting that takes `--parallel`
 * away runs v1.0, and its runs are checked against that, not the default's v2.0).
 */
import type { Configuration } from '../engine/configuration.ts'
import { architectureOfArgs } from '../engine/profile-configs.ts'
import { argsWithSetting } from './setting-args.ts'

export function withSettingArgs(
  base: Configuration,
  setting: { optionArgs: readonly string[]; takenAway?: readonly string[] },
  label: string,
): Configuration {
  const extraArgs = argsWithSetting(base.extraArgs ?? [], setting)
  return {
    ...base,
    label,
    extraArgs,
    ...(base.architecture && { architecture: architectureOfArgs(extraArgs, base.gpus?.length ?? 1) }),
  }
}

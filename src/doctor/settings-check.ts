import { thresholdsScopeNote } from '../config/thresholds.ts'
import { checkSuiteSettings } from '../engine/settings.ts'
import type { SettingsFinding } from './report.ts'

/**
 * The settings as the gpu project's global setup checks them (the same function): every VIRNUCPRO_BENCH_* variable,
 * the thresholds file, and the input read and validated as the suites read it. Never throws: a problem is a finding.
 */
export async function checkSettingsHere(env: NodeJS.ProcessEnv = process.env): Promise<SettingsFinding> {
  let input: SettingsFinding['input'] = null
  const unchecked: string[] = []
  const problems = await checkSuiteSettings(env, {
    onInput: (identity) => {
      input = { path: identity.path, files: identity.files.length, records: identity.records }
    },
    onNote: (note) => unchecked.push(note),
  })
  return {
    set: Object.keys(env)
      .filter((name) => name.startsWith('VIRNUCPRO_BENCH_') && env[name]?.trim())
      .sort(),
    problems: problems.map((p) => p.message),
    notes: [thresholdsScopeNote(env), ...unchecked].filter((note) => note !== null),
    input,
  }
}

/**
 * VIRNUCPRO_BENCH_PIPELINE_ARGS against the target's own `predict --help`, read by running it (seconds: it imports
 * the pipeline), for doctor and the gpu project's set-up (settings.ts checkSuiteSettings). An option the help does not
 * list is a problem, one line naming it and the target and where its options are listed; a help that cannot be read
 * here (the target not installed) is a note saying the options went unchecked, never a refusal: the suites' preflight
 * names what is missing.
 */
import { pipelineArgsHelpRefusal } from '../config/pipeline-args-help.ts'
import { readSetting } from '../config/variables.ts'
import { selectProfile, type TargetProfile } from '../pipeline/profiles.ts'
import { readTargetHelp, type TargetHelp } from '../pipeline/target-help.ts'

const NAME = 'VIRNUCPRO_BENCH_PIPELINE_ARGS'

export type HelpReader = (profile: TargetProfile, env: NodeJS.ProcessEnv) => Promise<TargetHelp>

export interface PipelineArgsCheck {
  /** The refusal, one line; null when the help lists every option (or was not read). */
  problem: string | null
  /** Why the options went unchecked; null when they were checked (or nothing was set). */
  note: string | null
}

/**
 * Checks the variable's options against the target's help. Call it only when the variable and the target parse (their
 * own problems are reported by the settings check).
 */
export async function checkPipelineArgs(
  env: NodeJS.ProcessEnv,
  readHelp: HelpReader = readTargetHelp,
): Promise<PipelineArgsCheck> {
  const words = readSetting(env, NAME)
  if (words === undefined || words.length === 0) return { problem: null, note: null }
  const profile = selectProfile(readSetting(env, 'VIRNUCPRO_BENCH_TARGET') ?? 'reference', env)
  const help = await readHelp(profile, env)
  if (help.state === 'unavailable')
    return { problem: null, note: `${NAME} not checked against the target's options: ${help.problem}` }
  const raw = env[NAME]!.trim()
  return { problem: pipelineArgsHelpRefusal(NAME, raw, words, help.options, profile.name), note: null }
}

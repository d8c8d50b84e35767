/**
 * VIRNUCPRO_BENCH_PIPELINE_ARGS: the `predict` options a user runs the pipeline with (`--esm-batch-size 4096 --threads
 * 32`), added to every configuration the suite runs (src/engine/profile-configs.ts configsFor), split into words as a
 * shell splits them (shell-words.ts). Refused here, before any run: bad quoting, a word that is neither an option nor
 * the value after one (the input is the suite's to give), and every option the suite sets itself (SUITE_OWNED). Whether
 * the target has each option is checked against its own `--help` where doctor and the gpu project's set-up can run it
 * (pipeline-args-help.ts).
 */
import { SettingError, variableInput } from '../platform/setting-error.ts'
import type { Setting } from './env-parsers.ts'
import { ShellWordsError, splitShellWords } from './shell-words.ts'

/**
 * The options the suite gives on every run or that say which configuration a run is: a user's value would overwrite
 * the suite's (the CLI's last occurrence wins) or turn every configuration into another under its old label.
 */
export const SUITE_OWNED: readonly { spellings: readonly string[]; why: string }[] = [
  { spellings: ['-o', '--output-dir'], why: 'each run writes to an output directory of its own' },
  { spellings: ['-f', '--force'], why: 'every run passes it, so an existing output directory never stops one' },
  { spellings: ['--gpus'], why: 'each configuration names its GPUs' },
  {
    spellings: ['-d', '--device'],
    why: "the device follows the configuration's GPUs (VIRNUCPRO_BENCH_DEVICE=cpu moves every configuration to the CPU)",
  },
  { spellings: ['-m', '--model-type'], why: "the model type (and with it the chunk length) is the configuration's" },
  { spellings: ['--parallel', '--v1-fallback'], why: 'each configuration names its architecture (v1.0 or v2.0)' },
  { spellings: ['--resume', '--force-resume'], why: 'every measured run starts from nothing' },
  { spellings: ['--model-scale'], why: 'VIRNUCPRO_BENCH_MODEL_SCALE sets it' },
  { spellings: ['--cpu-workers'], why: 'the CPU stand-in sets it (VIRNUCPRO_BENCH_DEVICE=cpu)' },
  { spellings: ['--inject'], why: 'faults are planted by the validation campaign alone' },
  { spellings: ['-h', '--help'], why: 'the pipeline would print its help and run nothing' },
]

const FIX =
  'give only your own predict options and their values, e.g. VIRNUCPRO_BENCH_PIPELINE_ARGS="--esm-batch-size 4096"'

/** A value refused, with what to do instead when that is more than the setting's usual fix. */
class PipelineArgsError extends Error {
  readonly fix: string
  constructor(problem: string, fix = FIX) {
    super(problem)
    this.fix = fix
  }
}

/**
 * The option a word names: `--x` of `--x=V`, `-x` of `-xV` (a short option with its value, or short flags together),
 * the word itself otherwise; null for a word that is no option (`32`, `-` alone, a negative number).
 */
export function optionOfWord(word: string): string | null {
  if (/^--[^=]/.test(word)) return word.split('=', 1)[0]!
  if (/^-[A-Za-z]/.test(word)) return word.slice(0, 2)
  return null
}

/** Why the suite keeps `option` to itself; null when it does not. */
export function suiteOwnedWhy(option: string): string | null {
  return SUITE_OWNED.find((o) => o.spellings.includes(option))?.why ?? null
}

/** The suite-owned refusal of `option`, in words. */
export const suiteOwnedProblem = (option: string, why: string) => `${option} is the suite's to set (${why})`

/**
 * The words of a VIRNUCPRO_BENCH_PIPELINE_ARGS value, checked as far as it can be without the target's help.
 * @throws PipelineArgsError whose message is the problem (the setting's parser makes it a SettingError).
 */
export function parsePipelineArgs(raw: string): string[] {
  let words: string[]
  try {
    words = splitShellWords(raw)
  } catch (error) {
    if (error instanceof ShellWordsError) throw new PipelineArgsError(error.message)
    throw error
  }
  const first = words[0]
  if (first !== undefined && optionOfWord(first) === null)
    throw new PipelineArgsError(
      `'${first}' is not an option: the words are options and the values after them (the input is the suite's to give)`,
    )
  for (const word of words) {
    if (word === '') throw new PipelineArgsError('an empty word (\'\' or ""): no option is empty')
    if (word === '--')
      throw new PipelineArgsError("'--' would make the words after it inputs (the input is the suite's to give)")
    const option = optionOfWord(word)
    const why = option === null ? null : suiteOwnedWhy(option)
    if (why !== null) throw new PipelineArgsError(suiteOwnedProblem(option!, why), `remove ${option} from it`)
  }
  return words
}

/** The setting: its words, or a one-line refusal naming the variable, the value, the problem and the fix. */
export function pipelineArgs(what: string): Setting<string[]> {
  return {
    what,
    parse(raw, name) {
      try {
        return parsePipelineArgs(raw)
      } catch (error) {
        if (!(error instanceof PipelineArgsError)) throw error
        throw new SettingError(variableInput(name, raw), error.message, error.fix, { cause: error })
      }
    },
  }
}

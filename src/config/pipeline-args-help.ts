/**
 * VIRNUCPRO_BENCH_PIPELINE_ARGS read beside the target's own `predict --help` (pipeline/help-options.ts): every word
 * is an option the help lists (exact spellings: argparse would take `--esm` for `--esm-batch-size`, click would not, so
 * neither is taken), with a value where the help shows a placeholder and none where it shows a flag; short flags
 * written together (`-kf`) are read one by one. A word left over is refused: the CLI would read it as a second input.
 */
import type { HelpOption } from '../pipeline/help-options.ts'
import { formatRefusal, variableInput } from '../platform/setting-error.ts'
import { closestMatch } from './closest.ts'
import { optionOfWord, suiteOwnedProblem, suiteOwnedWhy } from './pipeline-args.ts'

/** Where a person reads each target's options. */
const LISTED_BY: Record<string, string> = {
  reference:
    "its options are listed by 'PYTHONPATH=reference-pipeline python3 -m refpipe predict --help' (reference-pipeline/README.md describes them)",
  virnucpro: "its options are listed by 'python -m virnucpro predict --help' run in VIRNUCPRO_DIR",
}

/** Where `target`'s options are listed, in words. */
export const optionsListedBy = (target: string) => LISTED_BY[target] ?? `its options are listed by its 'predict --help'`

interface Step {
  problem?: string
  /** Words this option used (itself and its value). */
  used: number
  /** Whether it took no value (a flag, or flags together). */
  flag?: boolean
}

const shown = (o: HelpOption) => `${o.flags.join(', ')}${o.metavar ? ` ${o.metavar}` : ''}`

function notListed(option: string, options: readonly HelpOption[], target: string): string {
  const near = closestMatch(
    option,
    options.flatMap((o) => o.flags),
  )
  return `target '${target}' has no option ${option}${near ? ` (did you mean ${near}?)` : ''}`
}

/** A long option (`--x` or `--x=V`) at words[i]. */
function longOption(words: readonly string[], i: number, options: readonly HelpOption[], target: string): Step {
  const word = words[i]!
  const name = optionOfWord(word)!
  const o = options.find((x) => x.flags.includes(name))
  if (!o) return { problem: notListed(name, options, target), used: 1 }
  const attached = word.includes('=')
  if (o.metavar === null && attached) return { problem: `${name} takes no value (the help lists ${shown(o)})`, used: 1 }
  if (o.metavar !== null && !attached && i + 1 >= words.length)
    return { problem: `${name} takes a value (the help lists ${shown(o)}) and none follows it`, used: 1 }
  return { used: o.metavar !== null && !attached ? 2 : 1, flag: o.metavar === null }
}

/** Short options at words[i]: `-x`, `-xV`, `-x V`, or flags together (`-kf`), each letter read as the help says. */
function shortOptions(words: readonly string[], i: number, options: readonly HelpOption[], target: string): Step {
  const word = words[i]!
  for (let j = 1; j < word.length; j++) {
    const flag = `-${word[j]}`
    const o = options.find((x) => x.flags.includes(flag))
    if (!o) return { problem: notListed(j === 1 ? word : flag, options, target), used: 1 }
    const why = suiteOwnedWhy(flag)
    if (why !== null) return { problem: suiteOwnedProblem(flag, why), used: 1 }
    if (o.metavar === null) continue
    if (j + 1 < word.length) return { used: 1 }
    if (i + 1 >= words.length)
      return { problem: `${flag} takes a value (the help lists ${shown(o)}) and none follows it`, used: 1 }
    return { used: 2 }
  }
  return { used: 1, flag: true }
}

/** What the help says against the words, in words naming the target; null when nothing. */
export function pipelineArgsHelpProblem(
  words: readonly string[],
  options: readonly HelpOption[],
  target: string,
): string | null {
  let flag: string | null = null
  for (let i = 0; i < words.length; ) {
    const word = words[i]!
    if (optionOfWord(word) === null) {
      const what =
        flag === null ? 'neither an option nor the value of one' : `no option, and ${flag} before it takes no value`
      return `'${word}' is ${what}: target '${target}' would read it as an input (the input is the suite's to give)`
    }
    const step = word.startsWith('--') ? longOption(words, i, options, target) : shortOptions(words, i, options, target)
    if (step.problem) return step.problem
    flag = step.flag ? word : null
    i += step.used
  }
  return null
}

/** The refusal line of `name`'s value `raw` against the target's help; null when the help has nothing against it. */
export function pipelineArgsHelpRefusal(
  name: string,
  raw: string,
  words: readonly string[],
  options: readonly HelpOption[],
  target: string,
): string | null {
  const problem = pipelineArgsHelpProblem(words, options, target)
  return problem === null ? null : formatRefusal(variableInput(name, raw), problem, optionsListedBy(target))
}

// VIRNUCPRO_BENCH_PIPELINE_ARGS against VirNucPro's own `predict --help` (test/fixtures/help, printed by its click
// command) and the reference pipeline's (argparse).
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { parsePipelineArgs } from '../../src/config/pipeline-args.ts'
import { pipelineArgsHelpProblem, pipelineArgsHelpRefusal } from '../../src/config/pipeline-args-help.ts'
import { parseHelpOptions } from '../../src/pipeline/help-options.ts'

const help = (name: string) =>
  parseHelpOptions(readFileSync(resolve(import.meta.dirname, `../fixtures/help/${name}-predict.txt`), 'utf8'))
const VIRNUCPRO = help('virnucpro')
const REFPIPE = help('refpipe')
const against = (raw: string, options = VIRNUCPRO, target = 'virnucpro') =>
  pipelineArgsHelpProblem(parsePipelineArgs(raw), options, target)

describe("the user's options against VirNucPro's help", () => {
  test.for([
    '--esm-batch-size 4096 --threads 32',
    '-t 32 --no-cuda-streams --persistent-models',
    '-t32 -k',
    '--dnabert-batch-size=2048 --expandable-segments',
    '-k -w 8 --cache-clear-interval 50',
  ])('%s: every word an option it lists, with the value it takes', (raw) => {
    expect(against(raw)).toBeNull()
  })

  test('an option it does not list is refused, naming the option, the target, a near spelling and where they are listed', () => {
    const raw = '--esm-batch-szie 4096'
    expect(
      pipelineArgsHelpRefusal('VIRNUCPRO_BENCH_PIPELINE_ARGS', raw, parsePipelineArgs(raw), VIRNUCPRO, 'virnucpro'),
    ).toBe(
      "VIRNUCPRO_BENCH_PIPELINE_ARGS='--esm-batch-szie 4096': target 'virnucpro' has no option --esm-batch-szie (did you mean --esm-batch-size?); its options are listed by 'python -m virnucpro predict --help' run in VIRNUCPRO_DIR",
    )
  })

  test.for([
    ['--esm 4096', "target 'virnucpro' has no option --esm"],
    ['--model-scale-x tiny', "target 'virnucpro' has no option --model-scale-x"],
    ['-x', "target 'virnucpro' has no option -x"],
    [
      '--threads',
      '--threads takes a value (the help lists -t, --threads, --merge-threads INTEGER) and none follows it',
    ],
    ['-w', '-w takes a value'],
    ['--cuda-streams=yes', '--cuda-streams takes no value (the help lists --cuda-streams, --no-cuda-streams)'],
    [
      '--keep-intermediate extra.fa',
      "'extra.fa' is no option, and --keep-intermediate before it takes no value: target 'virnucpro' would read it as an input",
    ],
    ['-t 8 9', "'9' is neither an option nor the value of one"],
    ['-kf', "-f is the suite's to set"],
  ] as const)('%s: %s', ([raw, problem]) => {
    expect(against(raw)).toContain(problem)
  })
})

describe("the user's options against the reference pipeline's help", () => {
  test("VirNucPro's own options the reference pipeline lacks are refused; its own pass", () => {
    expect(against('--threads 32', REFPIPE, 'reference')).toBe("target 'reference' has no option --threads")
    expect(against('--esm-batch-size 4096 --seed 7 -k', REFPIPE, 'reference')).toBeNull()
  })
})

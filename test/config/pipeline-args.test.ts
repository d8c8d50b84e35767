import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { optionOfWord, SUITE_OWNED } from '../../src/config/pipeline-args.ts'
import { quoteShellWord } from '../../src/config/shell-words.ts'
import { readSetting } from '../../src/config/variables.ts'
import { suiteSettings } from '../../src/engine/settings.ts'

const NAME = 'VIRNUCPRO_BENCH_PIPELINE_ARGS'
const read = (raw: string) => readSetting({ [NAME]: raw }, NAME)

describe('VIRNUCPRO_BENCH_PIPELINE_ARGS: the words', () => {
  test("the user's own options and values, as a shell would pass them", () => {
    expect(read('--esm-batch-size 4096 --threads 32')).toEqual(['--esm-batch-size', '4096', '--threads', '32'])
    expect(read(`--label 'two words' -t8 --x=1`)).toEqual(['--label', 'two words', '-t8', '--x=1'])
    expect(suiteSettings({ [NAME]: '  --threads 32 ' }).pipelineArgs).toEqual(['--threads', '32'])
    expect(suiteSettings({}).pipelineArgs).toEqual([])
  })

  test("any options that are not the suite's, quoted as a shell would, are read back as given", () => {
    const owned = new Set(SUITE_OWNED.flatMap((o) => o.spellings))
    const option = fc.stringMatching(/^--[a-z][a-z0-9-]{0,12}$/).filter((o) => !owned.has(o))
    const value = fc.string({ maxLength: 10 }).filter((v) => v !== '' && !v.includes('\0') && optionOfWord(v) === null)
    fc.assert(
      fc.property(fc.array(fc.tuple(option, fc.option(value, { nil: undefined })), { minLength: 1 }), (pairs) => {
        const words = pairs.flatMap(([o, v]) => (v === undefined ? [o] : [o, v]))
        expect(read(words.map(quoteShellWord).join(' '))).toEqual(words)
      }),
    )
  })

  test('bad quoting is refused in one line naming the variable, the value and where', () => {
    expect(() => read(`--label 'x`)).toThrow(
      `${NAME}='--label 'x': the ' at character 9 is never closed; give only your own predict options and their values, e.g. ${NAME}="--esm-batch-size 4096"`,
    )
    expect(() => read('--out $HOME/x')).toThrow(/^VIRNUCPRO_BENCH_PIPELINE_ARGS='--out \$HOME\/x': '\$' at character 7/)
  })

  test("a word that is no option where an option must come is refused: the input is the suite's to give", () => {
    expect(() => read('my.fa --threads 4')).toThrow(
      `${NAME}='my.fa --threads 4': 'my.fa' is not an option: the words are options and the values after them (the input is the suite's to give)`,
    )
    expect(() => read('--threads 4 -- my.fa')).toThrow("'--' would make the words after it inputs")
    expect(() => read(`--label ''`)).toThrow(`${NAME}='--label ''': an empty word`)
  })
})

describe("VIRNUCPRO_BENCH_PIPELINE_ARGS: the suite's own options are refused", () => {
  const spellings = SUITE_OWNED.flatMap((o) => o.spellings.map((s) => [s, o.why] as const))

  test.for(spellings)('%s, named with why', ([spelling, why]) => {
    const raw = `--threads 4 ${spelling} 0`
    expect(() => read(raw)).toThrow(
      `${NAME}='${raw}': ${spelling} is the suite's to set (${why}); remove ${spelling} from it`,
    )
  })

  test.for([
    ['--gpus=0,1', '--gpus'],
    ['-o/tmp/out', '-o'],
    ['--output-dir=x', '--output-dir'],
    ['-dcpu', '-d'],
  ] as const)('%s: the attached forms too (%s)', ([raw, option]) => {
    expect(() => read(raw)).toThrow(`${option} is the suite's to set`)
  })

  test('the list holds what the runner itself gives every run (pipeline/command.ts) and the architecture', () => {
    const owned = SUITE_OWNED.flatMap((o) => o.spellings)
    for (const o of [
      '-o',
      '--output-dir',
      '-f',
      '--force',
      '--gpus',
      '-d',
      '--device',
      '-m',
      '--parallel',
      '--v1-fallback',
    ])
      expect(owned).toContain(o)
  })
})

// VIRNUCPRO_BENCH_PIPELINE_ARGS as doctor and the gpu project's set-up check it (checkSuiteSettings): against the
// target's own help: VirNucPro's recorded help (test/fixtures/help); the reference pipeline's live one in
// pipeline-args-check-reference.test.ts.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { checkSettingsHere } from '../../src/doctor/settings-check.ts'
import type { HelpReader } from '../../src/engine/pipeline-args-check.ts'
import { checkSuiteSettings } from '../../src/engine/settings.ts'
import { parseHelpOptions } from '../../src/pipeline/help-options.ts'

const NAME = 'VIRNUCPRO_BENCH_PIPELINE_ARGS'

/** VirNucPro's help as its click command printed it (test/fixtures/help). */
const virnucproHelp: HelpReader = async () => {
  const text = readFileSync(resolve(import.meta.dirname, '../fixtures/help/virnucpro-predict.txt'), 'utf8')
  return { state: 'read', text, options: parseHelpOptions(text) }
}

describe('the pipeline options against the target help', () => {
  test('VirNucPro: an option its help lacks is one problem naming it, the target and where its options are listed', async () => {
    const env = { VIRNUCPRO_BENCH_TARGET: 'virnucpro', [NAME]: '--threads 32 --frobnicate' }
    const problems = await checkSuiteSettings(env, { readHelp: virnucproHelp })
    expect(problems).toEqual([
      {
        variable: NAME,
        message: `${NAME}='--threads 32 --frobnicate': target 'virnucpro' has no option --frobnicate; its options are listed by 'python -m virnucpro predict --help' run in VIRNUCPRO_DIR`,
      },
    ])
    const good = { VIRNUCPRO_BENCH_TARGET: 'virnucpro', [NAME]: '--threads 32 --esm-batch-size 4096' }
    expect(await checkSuiteSettings(good, { readHelp: virnucproHelp })).toEqual([])
  })

  test("a suite-owned option is refused by the variable's own parser, before any help is read", async () => {
    const readHelp: HelpReader = () => Promise.reject(new Error('the help must not be read'))
    const problems = await checkSuiteSettings({ [NAME]: '--gpus 0,1' }, { readHelp })
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^VIRNUCPRO_BENCH_PIPELINE_ARGS='--gpus 0,1': --gpus is the suite's to set/),
    ])
  })

  test('a help that cannot be read leaves the options unchecked, said in a note (doctor shows it), never refused', async () => {
    const env = { VIRNUCPRO_BENCH_TARGET: 'virnucpro', VIRNUCPRO_DIR: '/nonexistent/virnucpro', [NAME]: '--threads 8' }
    const notes: string[] = []
    expect(await checkSuiteSettings(env, { onNote: (n) => notes.push(n) })).toEqual([])
    expect(notes).toEqual([
      `${NAME} not checked against the target's options: target 'virnucpro': cannot read 'predict --help': VIRNUCPRO_DIR does not exist: /nonexistent/virnucpro`,
    ])
    const finding = await checkSettingsHere(env)
    expect(finding.problems).toEqual([])
    expect(finding.notes).toContain(notes[0])
  })
})

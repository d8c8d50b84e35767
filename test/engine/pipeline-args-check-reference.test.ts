// VIRNUCPRO_BENCH_PIPELINE_ARGS against the reference pipeline's live `predict --help`, run through its profile as
// doctor and the gpu project's set-up run it (python3 with torch: seconds, so an integration file).
import { describe, expect, test } from 'vitest'
import { checkSuiteSettings } from '../../src/engine/settings.ts'
import { referencePipelineOnCpu } from '../support/reference-pipeline.ts'

const NAME = 'VIRNUCPRO_BENCH_PIPELINE_ARGS'
const ready = await referencePipelineOnCpu()

describe.skipIf(ready.state !== 'ready')("the pipeline options against the reference pipeline's help", () => {
  test("the reference pipeline's live help: its own options pass, VirNucPro's --threads it lacks is refused", async () => {
    // One read of the help (seconds): the words are checked in order, so the refusal of the last is the first one.
    const raw = '--esm-batch-size 4096 --seed 3 -k --threads 32'
    const problems = await checkSuiteSettings({ [NAME]: raw })
    expect(problems.map((p) => p.message)).toEqual([
      `${NAME}='${raw}': target 'reference' has no option --threads; its options are listed by 'PYTHONPATH=reference-pipeline python3 -m refpipe predict --help' (reference-pipeline/README.md describes them)`,
    ])
  })
})

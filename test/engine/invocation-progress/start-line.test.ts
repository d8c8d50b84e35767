import { describe, expect, test } from 'vitest'
import { startLine } from '../../../src/engine/invocation-progress/start-line.ts'

const E2E = 'benchmarks/e2e.gpu.test.ts'
const STAGE = 'benchmarks/stage-throughput.gpu.test.ts'

describe('the line an invocation opens with', () => {
  test('no earlier run: the forecast follows the first run; with VIRNUCPRO_BENCH_FRESH=1, running again starts afresh', () => {
    const line = startLine({
      files: [E2E, STAGE],
      earlier: { files: {}, kept: {} },
      runId: 'R',
      resultsRoot: '/r',
      continuable: false,
    })
    expect(line).toBe(
      '[plan] gpu project: 2 files, one at a time: e2e, stage-throughput. Forecast: no earlier invocation of this plan under this key in /r ran these files, so the forecast follows the first run. Each file plans its runs as it starts; a [run] line follows every run. VIRNUCPRO_BENCH_FRESH=1 is set: the same command run again would start afresh; run without it to continue run R where it stopped.',
    )
  })
})

// Issue 44: the main job's capacity file and its settings study measured the same configurations at the same sizes, and
// printed two answers of one name. The second to come takes the run's answer as it is (capacity/answered.ts).
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { answeredInRun } from '../../src/capacity/answered.ts'
import { runCapacitySuite } from '../../src/capacity/suite.ts'
import type { ResolvedInput } from '../../src/input/resolver.ts'
import { cpuConfig, cpuContext } from '../suites/support/cpu-suite.ts'

const FIXTURE = join(import.meta.dirname, '../fixtures/capacity/cpu-1-2-workers-8-40.json')
const FIXTURE_ID = 'capacity-1-worker-2-workers'
const configs = [
  { config: cpuConfig('1 worker'), gpuCount: 1 },
  { config: cpuConfig('2 workers'), gpuCount: 2 },
]
// Never read: a measurement of them fails at once (no such file), which is how a test would see one start.
const inputs = [8, 40].map((records) => ({ file: `/nonexistent/${records}.fa`, records }) as unknown as ResolvedInput)

async function runWith(record: (text: string) => string) {
  const ctx = await cpuContext()
  writeFileSync(join(ctx.resultsDir, `${FIXTURE_ID}.json`), record(readFileSync(FIXTURE, 'utf8')))
  return ctx
}

describe('answeredInRun', () => {
  test("a completed capacity record of the configurations' id is the run's answer; a failed one, or another id, is not", async () => {
    const ctx = await cpuContext()
    expect(await answeredInRun(ctx, 'capacity-1 worker + 2 workers')).toBeNull()
    copyFileSync(FIXTURE, join(ctx.resultsDir, `${FIXTURE_ID}.json`))
    expect((await answeredInRun(ctx, 'capacity-1 worker + 2 workers'))?.id).toBe(FIXTURE_ID)
    expect(await answeredInRun(ctx, 'capacity-1 worker')).toBeNull()
    const failed = await runWith((t) => t.replace('"state": "completed"', '"state": "failed"'))
    expect(await answeredInRun(failed, 'capacity-1 worker + 2 workers')).toBeNull()
  })
})

describe('runCapacitySuite with takeAnswered', () => {
  test('takes the answer the run holds, says so in one line, measures nothing and writes no second record', async () => {
    const ctx = await runWith((t) => t)
    const lines: string[] = []
    const outcome = await runCapacitySuite(ctx, { monitor: { intervalMs: 20 } } as never, configs, inputs, {
      takeAnswered: true,
      onAnswer: (line) => lines.push(line),
    })
    expect(outcome.record.id).toBe(FIXTURE_ID)
    expect(outcome.path).toBe(join(ctx.resultsDir, `${FIXTURE_ID}.json`))
    expect(lines).toEqual([
      `capacity, 1 worker + 2 workers at 8 / 40 seqs: answered already in this run (record ${FIXTURE_ID}, 16 runs): taken as it is, not measured again`,
    ])
    expect(readdirSync(ctx.resultsDir).filter((f) => f.endsWith('.json'))).toEqual([`${FIXTURE_ID}.json`])
  })

  test('without takeAnswered it measures (here: fails on the missing input), as every caller but the two files did', async () => {
    const ctx = await runWith((t) => t)
    await expect(runCapacitySuite(ctx, { monitor: { intervalMs: 20 } } as never, configs, inputs, {})).rejects.toThrow()
  })
})

// Issue 44: the main job's capacity file and its settings study measured the same configurations at the same sizes, and
// printed two answers of one name. The second to come takes the run's answer as it is (capacity/answered.ts). Issue 58:
// only for the same question: other sizes, another input, another stop rule or a larger budget are measured anew.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  answerEnvironment,
  answeredInRun,
  answerInRun,
  type CapacityQuestion,
  capacityQuestion,
} from '../../src/capacity/answered.ts'
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
const sized = (sizes: number[], sha256 = 'a'.repeat(64)) =>
  sizes.map(
    (records) => ({ file: `/nonexistent/${records}.fa`, records, source: { sha256 } }) as unknown as ResolvedInput,
  )
const inputs = sized([8, 40])
// Where every test context works answers out: no NVML here, the reference pipeline, this tree's code.
const here = await answerEnvironment(await cpuContext())
const asked = (
  o: {
    sizes?: number[]
    sha256?: string
    rule?: 'decided' | 'width'
    budget?: number
    environment?: Record<string, unknown>
  } = {},
) =>
  capacityQuestion(
    configs.map((c) => c.config),
    sized(o.sizes ?? [8, 40], o.sha256),
    o.rule ?? 'decided',
    o.budget ?? 0,
    o.environment ?? here,
  )
/** The question as another host's H100 answered it. */
const onAnH100 = (o: Parameters<typeof asked>[0] = {}) =>
  asked({ ...o, environment: { ...here, gpus: ['NVIDIA H100 80GB HBM3 GPU-1'], driver: '580.1' } })

/** The fixture's record answering `question` (none: as written before issue 58). */
function answering(question: CapacityQuestion | null) {
  return (text: string) => {
    const record = JSON.parse(text)
    if (question) record.stats.question = question
    return JSON.stringify(record)
  }
}

async function runWith(record: (text: string) => string) {
  const ctx = await cpuContext()
  writeFileSync(join(ctx.resultsDir, `${FIXTURE_ID}.json`), record(readFileSync(FIXTURE, 'utf8')))
  return ctx
}

describe('answeredInRun', () => {
  test("a completed capacity record of the configurations' id answering the question is the run's answer; a failed one, or another id, is not", async () => {
    const ctx = await cpuContext()
    const id = 'capacity-1 worker + 2 workers'
    expect(await answeredInRun(ctx, id, asked())).toEqual({ state: 'none' })
    const answered = await runWith(answering(asked({ budget: 4 })))
    const found = await answeredInRun(answered, id, asked({ budget: 2 }))
    expect(found.state === 'answered' && found.record.id).toBe(FIXTURE_ID)
    expect(await answeredInRun(answered, 'capacity-1 worker', asked())).toEqual({ state: 'none' })
    const failed = await runWith((t) => answering(asked())(t).replace('"state":"completed"', '"state":"failed"'))
    expect(await answeredInRun(failed, id, asked())).toEqual({ state: 'none' })
  })

  test('issue 58: other sizes, another input, another stop rule, a larger budget, or no question kept: another question', async () => {
    const id = 'capacity-1 worker + 2 workers'
    const ctx = await runWith(answering(asked({ budget: 2 })))
    for (const other of [
      asked({ sizes: [16, 32] }),
      asked({ sha256: 'b'.repeat(64) }),
      asked({ rule: 'width' }),
      asked({ budget: 3 }),
    ]) {
      const found = await answeredInRun(ctx, id, other)
      expect(found.state).toBe('other')
      expect(found.state === 'other' && found.suffix).toMatch(/^~[0-9a-f]{8}$/)
    }
    const old = await runWith(answering(null))
    expect((await answeredInRun(old, id, asked())).state).toBe('other')
  })

  test('issue 57: a record the job limit cut short (its design, or its check not run) is no answer: the same question goes on under its id', async () => {
    const id = 'capacity-1 worker + 2 workers'
    const cut = (edit: (stats: Record<string, unknown>) => void) => (text: string) => {
      const record = JSON.parse(answering(asked({ budget: 4 }))(text))
      edit(record.stats)
      return JSON.stringify(record)
    }
    const designCut = await runWith(
      cut((s) => {
        s.sequential = { stop: 'job-limit', topUps: 2, gpuMinutes: 1, budgetGpuMinutes: 4, steps: [] }
      }),
    )
    expect(await answeredInRun(designCut, id, asked({ budget: 2 }))).toEqual({ state: 'none' })
    const checkCut = await runWith(
      cut((s) => {
        s.sizeChoice = {
          plan: null,
          heldOut: { records: null, why: 'no held-out run yet: the job limit', jobLimit: true },
        }
      }),
    )
    expect(await answeredInRun(checkCut, id, asked({ budget: 2 }))).toEqual({ state: 'none' })
    // Another question beside a cut record is still another question, under an id of its own.
    expect((await answeredInRun(checkCut, id, asked({ sizes: [16, 32] }))).state).toBe('other')
  })

  test('the same question answered under another key (another GPU, driver, target or code) is asked again under its id, said why', async () => {
    const id = 'capacity-1 worker + 2 workers'
    const found = await answeredInRun(await runWith(answering(onAnH100({ budget: 4 }))), id, asked({ budget: 2 }))
    expect(found.state).toBe('none')
    expect(found.state === 'none' && found.line).toBe(
      'capacity: record capacity-1-worker-2-workers in this run answers this question, worked out under another key ' +
        `(driver (was 580.1, now ${here.driver}); gpus (was ["NVIDIA H100 80GB HBM3 GPU-1"], now [])): asked again under its id, its runs kept under this key replayed`,
    )
    const code = await runWith(answering(asked({ environment: { ...here, answering: '0123456789ab' } })))
    const again = await answeredInRun(code, id, asked())
    expect(again.state === 'none' && again.line).toMatch(
      /under another key \(answering \(was 0123456789ab, now [0-9a-f]{12}\)\)/,
    )
    // A question kept before its environment was: answered somewhere unknown.
    const unknown = await runWith(answering({ ...asked(), environment: undefined }))
    const old = await answeredInRun(unknown, id, asked())
    expect(old.state === 'none' && old.line).toMatch(/under another key \(where it was answered \(not kept/)
    // Another question is another question wherever it was answered: under an id of its own, as before.
    expect((await answeredInRun(await runWith(answering(onAnH100())), id, asked({ sizes: [16, 32] }))).state).toBe(
      'other',
    )
  })
})

describe('answerInRun: the same question under another name (issue 56)', () => {
  test('a completed record answering it under any id; not one cut short, failed, or of another question', async () => {
    const ctx = await runWith(answering(asked({ budget: 4 })))
    expect((await answerInRun(ctx, asked({ budget: 2 })))?.id).toBe(FIXTURE_ID)
    expect(await answerInRun(ctx, asked({ budget: 5 }))).toBeNull()
    expect(await answerInRun(ctx, asked({ sizes: [16, 32] }))).toBeNull()
    const cut = await runWith((t) => {
      const record = JSON.parse(answering(asked())(t))
      record.stats.sequential = { stop: 'job-limit', topUps: 1, gpuMinutes: 1, budgetGpuMinutes: 4, steps: [] }
      return JSON.stringify(record)
    })
    expect(await answerInRun(cut, asked())).toBeNull()
    const failed = await runWith((t) => answering(asked())(t).replace('"state":"completed"', '"state":"failed"'))
    expect(await answerInRun(failed, asked())).toBeNull()
    expect(await answerInRun(await cpuContext(), asked())).toBeNull()
    // Answered on another host: not this run's answer under any name.
    expect(await answerInRun(await runWith(answering(onAnH100())), asked())).toBeNull()
  })
})

/** The lines a measurement taking answers says when it measures (and fails at once on the inputs no one can read). */
async function linesWhenMeasured(ctx: Awaited<ReturnType<typeof cpuContext>>) {
  const lines: string[] = []
  await expect(
    runCapacitySuite(ctx, { monitor: { intervalMs: 20 } } as never, configs, inputs, {
      takeAnswered: true,
      onAnswer: (line) => lines.push(line),
    }),
  ).rejects.toThrow()
  return lines
}

describe('runCapacitySuite with takeAnswered', () => {
  test("issue 56: the same command lines under other labels (the study's `no --parallel` winner, the v1.0 baseline) take that answer", async () => {
    const ctx = await runWith(answering(asked()))
    const renamed = configs.map((c, i) => ({ ...c, config: { ...c.config, label: `setting ${i + 1}` } }))
    const lines: string[] = []
    const outcome = await runCapacitySuite(ctx, { monitor: { intervalMs: 20 } } as never, renamed, inputs, {
      takeAnswered: true,
      onAnswer: (line) => lines.push(line),
    })
    expect(outcome.record.id).toBe(FIXTURE_ID)
    expect(lines).toEqual([
      `capacity, setting 1 + setting 2 at 8 / 40 seqs: answered already in this run (record ${FIXTURE_ID}, 16 runs): taken as it is, not measured again`,
    ])
    expect(readdirSync(ctx.resultsDir).filter((f) => f.endsWith('.json'))).toEqual([`${FIXTURE_ID}.json`])
    // Without takeAnswered the other name is measured (here: fails on the missing input), the record left as it was.
    await expect(runCapacitySuite(ctx, { monitor: { intervalMs: 20 } } as never, renamed, inputs, {})).rejects.toThrow()
  })

  test('takes the answer the run holds, says so in one line, measures nothing and writes no second record', async () => {
    const ctx = await runWith(answering(asked()))
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

  test('issue 58: another question is measured anew under an id of its own, said in one line, the record there left as it was', async () => {
    const ctx = await runWith(answering(asked({ sizes: [16, 32] })))
    const before = readFileSync(join(ctx.resultsDir, `${FIXTURE_ID}.json`), 'utf8')
    const lines = await linesWhenMeasured(ctx)
    expect(lines[0]).toMatch(
      /^capacity: record capacity-1-worker-2-workers in this run answers another question \(1 worker \+ 2 workers at 16 \/ 32 records .*\); this one \(1 worker \+ 2 workers at 8 \/ 40 records .*\) is measured anew under capacity-1-worker-2-workers~[0-9a-f]{8}$/,
    )
    expect(readFileSync(join(ctx.resultsDir, `${FIXTURE_ID}.json`), 'utf8')).toBe(before)
  })

  test('a pinned run continued on another host: its answer is not taken, the line says why, and the question is measured', async () => {
    const lines = await linesWhenMeasured(await runWith(answering(onAnH100())))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      /^capacity: record capacity-1-worker-2-workers in this run answers this question, worked out under another key \(.*gpus \(was \["NVIDIA H100 80GB HBM3 GPU-1"\], now \[\]\)\): asked again under its id/,
    )
  })

  test('without takeAnswered it measures (here: fails on the missing input), as every caller but the two files did', async () => {
    const ctx = await runWith(answering(asked()))
    await expect(runCapacitySuite(ctx, { monitor: { intervalMs: 20 } } as never, configs, inputs, {})).rejects.toThrow()
  })
})

// The journal side of a measurement with made-up runs (no pipeline): what a reader finds after a stop, and what the
// continuation says.
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { DEFAULT_THRESHOLDS } from '../../src/config/thresholds.ts'
import type { Configuration } from '../../src/engine/configuration.ts'
import { openJournal } from '../../src/engine/measurement-journal.ts'
import { DEFAULT_REPETITION_POLICY } from '../../src/measure/index.ts'
import { referenceProfile } from '../../src/pipeline/profiles.ts'
import { readRunDirectory } from '../../src/results/partial-records.ts'
import { readJournal } from '../../src/results/run-journal.ts'
import { tinyInput } from '../suites/support/cpu-suite.ts'
import { observation, sampleResultRecord } from '../support/result-records.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const config = (label: string): Configuration => ({ label, gpus: [0] })
const once = { ...DEFAULT_REPETITION_POLICY, warmupRuns: 0, minRuns: 1, maxRuns: 1 }

async function journalIn(invocation: string, lines: string[]) {
  const { provenance } = sampleResultRecord()
  return {
    environment: { driver: '580.1' },
    invocation,
    runId: 'run-1',
    purpose: { kind: 'capacity' as const, id: 'capacity-1-GPU', name: 'capacity, 1 GPU at 4,000 seqs' },
    describe: async () => ({ provenance, thresholds: DEFAULT_THRESHOLDS }),
    say: (line: string) => lines.push(line),
  }
}

describe('the measurement journal', () => {
  test("each top-up (one arm, the planned arm's slot) is a measurement of its own, and a reader finds every run", async () => {
    const runDir = tempDirUntilFileEnd('journal-')
    const workDir = join(runDir, 'work')
    const input = await tinyInput(5)
    const lines: string[] = []
    const journal = await journalIn('first', lines)
    const side = { profile: referenceProfile, workDir, monitor: null, journal }
    for (const k of [1, 2, 3]) {
      const label = `1 GPU, 4,000 seqs top-up ${k}`
      const j = await openJournal([{ config: config(label), input }], side, once)
      await j.run({ config: config(label), input }, `${label} run 1`, async () => observation(`${label} run 1`))
    }
    const { measurements } = await readJournal(workDir)
    expect(measurements.map((m) => m.entry.arms[0]!.label).sort()).toEqual(
      [1, 2, 3].map((k) => `1 GPU, 4,000 seqs top-up ${k}`),
    )
    const { records } = await readRunDirectory(runDir)
    expect(records).toHaveLength(1)
    expect(records[0]!.state).toBe('partial')
    expect(records[0]!.runs.map((r) => r.label)).toEqual([1, 2, 3].map((k) => `1 GPU, 4,000 seqs top-up ${k} run 1`))
    expect(records[0]!.reason).toMatch(/^interrupted: 3 of 3 measured run\(s\) kept/)
    expect(records[0]!.verdicts).toEqual([])
  })

  test('a later invocation reuses the runs, names them kept, and says so once per measurement', async () => {
    const runDir = tempDirUntilFileEnd('journal-')
    const workDir = join(runDir, 'work')
    const input = await tinyInput(5)
    const arm = { config: config('1 GPU'), input }
    const two = { ...once, minRuns: 2, maxRuns: 2 }
    const first = await openJournal(
      [arm],
      { profile: referenceProfile, workDir, monitor: null, journal: await journalIn('first', []) },
      two,
    )
    await first.run(arm, '1 GPU run 1', async () => observation('1 GPU run 1'))
    const lines: string[] = []
    const side = {
      profile: referenceProfile,
      workDir,
      monitor: null,
      journal: await journalIn('second', lines),
    }
    const second = await openJournal([arm], side, two)
    expect(lines).toEqual(['continuing run-1: capacity, 1 GPU at 4,000 seqs: 1 of 2 measured runs kept'])
    let measured = 0
    const measure = async (label: string) => {
      measured++
      return observation(label)
    }
    const r1 = await second.run(arm, '1 GPU run 1', () => measure('1 GPU run 1'))
    const r2 = await second.run(arm, '1 GPU run 2', () => measure('1 GPU run 2'))
    second.finish()
    expect(measured).toBe(1)
    expect(r1.reused && r1.observation.measured.keptFrom?.invocation).toBe('first')
    expect(r2.reused).toBe(false)
    expect(lines.at(-1)).toBe(
      'continuing run-1: capacity, 1 GPU at 4,000 seqs: 1 run(s) kept from earlier invocations, 1 measured now',
    )
  })
})

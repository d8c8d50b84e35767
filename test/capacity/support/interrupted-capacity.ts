/**
 * A capacity measurement as a time limit leaves it, laid out from a real record (2 x H200, issue 24's call G): its
 * runs in the run journal (every run's `run.json` and the measurement file) and no record, cut after `keep` runs (a
 * killed invocation), and the same measurement finished: its record as today's analysis writes it (the `decided`
 * design's six looks), so a report of either reads today's figures.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { recordAnalysis } from '../../../src/capacity/record-answer.ts'
import { slug } from '../../../src/engine/configuration.ts'
import type { ResultRecord } from '../../../src/results/schema/index.ts'
import { JOURNAL_FORMAT } from '../../../src/results/schema/run-entry.ts'
import { h200Record } from './gpu-capacity.ts'

const armOf = (label: string) => label.replace(/ (?:run|warm-up) \d+$/, '')

/** Measured runs the journal's measurement plans per arm (call G: 3, warm-ups apart). */
export const PLANNED_RUNS_PER_ARM = 3

/**
 * Writes call G's runs, the first `keep` of them (warm-ups counted), as the journal of run directory `dir`, without
 * the record: what `report` and `capacity` read as a partial record.
 */
export async function interruptedCapacityDir(dir: string, keep = Number.POSITIVE_INFINITY): Promise<ResultRecord> {
  const record = h200Record('g')
  const arms = [...new Set(record.runs.map((r) => armOf(r.label)))]
  const slotOf = (arm: string) => `slot-${arms.indexOf(arm)}`
  for (const [i, measured] of record.runs.slice(0, keep).entries()) {
    const runDir = join(dir, 'work', slotOf(armOf(measured.label)), slug(measured.label))
    await mkdir(runDir, { recursive: true })
    const entry = {
      format: JOURNAL_FORMAT,
      key: {},
      measured,
      extras: { esm2Batches: [], esm2Completions: [], memory: [], monitorProblem: null, versions: {} },
      measuredBy: { invocation: 'killed', host: 'gpu-host', pid: 4242 },
      finishedAt: new Date(Date.parse(record.createdAt) - (record.runs.length - i) * 1000).toISOString(),
    }
    await writeFile(join(runDir, 'run.json'), JSON.stringify(entry))
  }
  await mkdir(join(dir, 'work', 'measurements'), { recursive: true })
  await writeFile(
    join(dir, 'work', 'measurements', `${record.id}-0000.json`),
    JSON.stringify({
      format: JOURNAL_FORMAT,
      purpose: { kind: 'capacity', id: record.id, name: record.name },
      arms: arms.map((label) => ({ label, slot: slotOf(label) })),
      plannedRuns: PLANNED_RUNS_PER_ARM,
      provenance: record.provenance,
      thresholds: record.thresholds,
      startedAt: record.runs[0]!.run.startedAt,
    }),
  )
  return record
}

/**
 * Call G finished: its record with every run, analysed as the suite analyses it today under the `decided` design
 * (six looks planned, stopped after one), written as `<dir>/<id>.json`.
 */
export async function finishedCapacityDir(dir: string): Promise<ResultRecord> {
  const stored = h200Record('g')
  // Today's analysis of the whole measurement: the partial record's refit (its looks: the decided design's).
  const analysis = recordAnalysis({ ...stored, state: 'partial', stats: {}, verdicts: [] })
  if (!analysis) throw new Error("call G's runs fit no configuration")
  const sequential = {
    stop: 'decided',
    topUps: 0,
    gpuMinutes: 7.6,
    budgetGpuMinutes: 14,
    rule: 'decided',
    looks: 1,
    maxLooks: 6,
    level: analysis.stats.ciLevel,
  }
  const record: ResultRecord = {
    ...stored,
    stats: { ...analysis.stats, sequential } as unknown as Record<string, unknown>,
    verdicts: analysis.verdicts,
  }
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, `${record.id}.json`), JSON.stringify(record))
  return record
}

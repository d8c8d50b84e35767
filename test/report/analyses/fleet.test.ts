// The fleet analysis on the fleet fixtures: hosts and GPU models compared on one measurement, the bad node found.
import { describe, expect, test } from 'vitest'
import { analyzeFleet } from '../../../src/report/analyses/fleet.ts'
import { loadDemo } from '../support/demo.ts'
import { fleetRecords, loadFleet, STAGE_RUN_ID } from '../support/fleet.ts'

const input = await loadFleet()
const fleet = analyzeFleet(input.records, input.sources)!
const STAGE = 'cpu tiny, 20 seqs'
const stageRows = fleet.comparison.hosts.filter((h) => h.measurement === STAGE)
const rowOf = (host: string) => stageRows.find((h) => h.host === host)!

describe('hosts compared on one measurement', () => {
  test('the stage run, spread over two directories, is one measurement with a row per host', () => {
    expect(stageRows.map((h) => h.host).sort()).toEqual([
      'gpu-a-01',
      'gpu-a-02',
      'node-01',
      'node-02',
      'node-03',
      'node-04',
    ])
    for (const h of stageRows) {
      expect(h.runs).toBe(3)
      expect(h.sequencesPerS!.value).toBeGreaterThan(0)
      expect(h.tokensPerS!.value).toBeGreaterThan(0)
      expect(h.jPerSequence!.value).toBeGreaterThan(0)
    }
  })

  test("each host's seq/s is the median of its runs' sequences over wall time", async () => {
    const records = await fleetRecords()
    const record = records.find((r) => r.provenance.host.hostname === 'node-02' && r.kind === 'stage')!
    const rates = record.runs
      .map((m) => (m.run.summary!.sequencesProcessed! * 1000) / m.run.wallMs)
      .sort((a, b) => a - b)
    expect(rowOf('node-02').sequencesPerS!.value).toBeCloseTo(rates[1]!, 9)
    expect(rowOf('node-02').sequencesPerS!.ci).toEqual({ low: rates[0], high: rates[2] })
  })

  test('node-04 (the injected slow ESM-2 stage) is the bad node of the H200s; the other H200s pass', () => {
    expect(rowOf('node-04').badNode).toMatchObject({ verdict: 'flag', direction: 'slower' })
    expect(rowOf('node-04').badNode.reason).toMatch(/^slower than the fleet: -\d+\.\d% from the fleet median, z -\d+/)
    for (const host of ['node-01', 'node-02', 'node-03']) expect(rowOf(host).badNode.verdict).toBe('pass')
    const h200 = fleet.comparison.models.find((m) => m.measurement === STAGE && m.gpuModel === 'NVIDIA H200 (fake)')!
    expect(h200).toMatchObject({ hosts: 4, runs: 12, badNodes: ['node-04'], faster: [] })
    expect(fleet.hosts.find((h) => h.host === 'node-04')?.badNodeIn).toEqual([STAGE])
  })

  test('two A100 hosts are no fleet spread: no verdict, and the reason says so', () => {
    for (const host of ['gpu-a-01', 'gpu-a-02'])
      expect(rowOf(host).badNode).toEqual({
        verdict: 'inconclusive',
        direction: null,
        reason: 'no verdict: 2 host(s) of this GPU model measured it; a fleet spread needs >= 3',
      })
    const a100 = fleet.comparison.models.find((m) => m.gpuModel.startsWith('NVIDIA A100'))!
    expect(a100).toMatchObject({ hosts: 2, runs: 6, badNodes: [] })
    expect(a100.hostRange!.low).toBeLessThanOrEqual(a100.hostRange!.high)
  })

  test("each GPU model's row pools its hosts' runs: its median lies within the host medians' range", () => {
    for (const m of fleet.comparison.models.filter((x) => x.measurement === STAGE)) {
      const medians = stageRows.filter((h) => h.gpuModel === m.gpuModel).map((h) => h.sequencesPerS!.value)
      expect(m.hostRange).toEqual({ low: Math.min(...medians), high: Math.max(...medians) })
      expect(m.sequencesPerS!.value).toBeGreaterThanOrEqual(Math.min(...medians))
      expect(m.sequencesPerS!.value).toBeLessThanOrEqual(Math.max(...medians))
    }
  })

  test('a measurement one host ran is counted in a note, not compared', () => {
    expect(fleet.comparison.singleHost).toEqual(['cpu tiny, shards of 1 (729b44945305)'])
    expect(fleet.notes).toContain(
      '1 measurement(s) ran on one host only, nothing to compare them with: cpu tiny, shards of 1 (729b44945305)',
    )
  })
})

describe('per host', () => {
  test("PERF verdicts are the worst of the host's own, counted; none where it judged none", () => {
    const node01 = fleet.hosts.find((h) => h.host === 'node-01')!
    const record = input.records.find((r) => r.provenance.host.hostname === 'node-01')!
    const perf02 = record.verdicts.filter((v) => v.id.startsWith('perf02/'))
    expect(node01.perf02).toEqual({ worst: 'pass', counts: { pass: perf02.length } })
    expect(node01.perf01).toBeNull()
    expect(node01.perf03).toBeNull()
  })

  test('a shard host carries its projected production time from its own size model; a stage host has none', () => {
    const shard = fleet.hosts.find((h) => h.host === 'shard-node-1')!
    expect(shard.projections).toHaveLength(1)
    const p = shard.projections[0]!
    expect(p).toMatchObject({
      label: expect.stringMatching(/^cpu tiny, shard \d\/4's node alone$/),
      sequences: 6_000_000,
    })
    expect(p.wallMs!.ci!.low).toBeLessThan(p.wallMs!.value)
    expect(p.wallMs!.ci!.high).toBeGreaterThan(p.wallMs!.value)
    expect(['pass', 'fail', 'inconclusive']).toContain(p.perf01)
    expect(fleet.hosts.find((h) => h.host === 'node-01')!.projections).toEqual([])
  })
})

describe('when there is no fleet', () => {
  test("one host's run without shards has none", async () => {
    const demo = await loadDemo()
    expect(analyzeFleet(demo.records)).toBeNull()
  })

  test('several directories of one host still list what was read', async () => {
    const demo = await loadDemo()
    const sources = [
      { dir: 'a', runIds: [STAGE_RUN_ID], records: 2, invalid: 0, duplicates: 0, problem: null },
      { dir: 'b', runIds: [], records: 0, invalid: 1, duplicates: 0, problem: null },
    ]
    expect(analyzeFleet(demo.records, sources)?.sources).toEqual(sources)
  })
})

import { describe, expect, test } from 'vitest'
import { buildReport } from '../../../src/report/analyses/build.ts'
import { escapeMarkdown } from '../../../src/report/render/escape.ts'
import { fleetTerminalLines } from '../../../src/report/render/fleet-text.ts'
import { ReportJsonSchema, summaryJson } from '../../../src/report/render/json.ts'
import { summaryMarkdown } from '../../../src/report/render/markdown.ts'
import { terminalSummary } from '../../../src/report/render/terminal.ts'
import { loadDemo } from '../support/demo.ts'
import { loadFleet, SHARD_RUN_ID } from '../support/fleet.ts'

const input = await loadFleet()
const report = buildReport(input)
const md = summaryMarkdown(report)
const section = md.slice(md.indexOf('## Fleet'), md.indexOf('\n## ', md.indexOf('## Fleet') + 1))

describe('summary.md fleet section', () => {
  test('sits after capacity and lists the directories merged, one row each', () => {
    expect(md.indexOf('## Capacity')).toBeLessThan(md.indexOf('## Fleet: hosts, GPU models and sharded runs'))
    expect(section).toContain('11 host(s), 2 GPU model(s), 1 sharded run(s).')
    expect(section.match(/^\| \/.*fleet\/(results|other-root)\/2026-/gm)).toHaveLength(3)
  })

  test('a row per host with its PERF verdicts, projection and bad-node flag', () => {
    expect(section).toMatch(
      /^\| node-04 \| NVIDIA H200 \\\(fake\\\) \| 1 \| n\/a \| PASS \\\(2\\\) \| n\/a \| no size model \| BAD NODE on cpu tiny, 20 seqs \|$/m,
    )
    expect(section).toMatch(
      /^\| shard-node-1 \| .* \| cpu tiny, shard \d\/4's node alone: \d+\.\d h \\\[[\d.]+, [\d.]+\\\] \\\(PERF-01 [A-Z]+\\\) \| - \|$/m,
    )
  })

  test('per measurement: hosts with seq/s, tok/s, J/seq and the bad-node verdict with why; the rule under it', () => {
    expect(section).toContain('### cpu tiny, 20 seqs')
    expect(section).toMatch(
      /^\| node-04 \| .* \| 3 \| [\d.]+ seq\/s \\\[[\d.]+, [\d.]+\\\] \| \d+ tok\/s .* \| FLAG \\\(slower\\\): slower than the fleet: /m,
    )
    expect(section).toContain(`| gpu-a-01 | NVIDIA A100-SXM4-80GB \\(fake\\) | 3 |`)
    expect(section).toContain(
      escapeMarkdown('no verdict: 2 host(s) of this GPU model measured it; a fleet spread needs >= 3'),
    )
    expect(section).toContain('_Bad node: among the hosts of one GPU model')
  })

  test('a sharded run answers in bold lines: fleet, straggler and stage, N vs 1, production; then a row per shard', () => {
    const run = section.slice(section.indexOf('### Sharded run'))
    expect(run).toContain(escapeMarkdown(`cpu tiny: 4 shards of 80 seqs (729b44945305), run ${SHARD_RUN_ID}`))
    expect(run).toMatch(/\*\*Fleet: 80 seqs in [\d.]+ s \\\[[\d.]+, [\d.]+\\\] on 4 node\\\(s\\\): [\d.]+ seq\/s/)
    expect(run).toMatch(
      /\*\*Straggler: shard 3 on shard-node-3 .* ESM-2 Feature Extraction \\\+[\d.]+ s over the other shards' median\. Balance FLAG/,
    )
    expect(run).toMatch(
      /\*\*4 nodes vs 1: (PASS|FAIL|INCONCLUSIVE|FLAG) [\d.]+x \\\[[\d.]+, [\d.]+\\\] \\\(efficiency \d+%; 1 node [\d.]+ s .*\\\(measured\\\)/,
    )
    expect(run).toMatch(/\*\*Check, projected from the shards' own models: 4 nodes vs 1: /)
    expect(run).toMatch(/\*\*6,000,000 sequences on 4 node\\\(s\\\) like these: [\d.]+ h /)
    expect(run.match(/^\| [0-3] \| shard-node-[0-3] \|/gm)).toHaveLength(4)
  })

  test('a run with nothing measured for one node reads NO VERDICT, and why', () => {
    const records = input.records.filter((r) => r.kind === 'shard' && r.id.startsWith('shard-0-of-1') === false)
    const oneSize = structuredClone(records).map((r) => {
      const stats = r.stats as { full: { setup: string }; subset: unknown; subsetProblem: string }
      r.runs = r.runs.filter((m) => m.config.setup === stats.full.setup)
      stats.subset = null
      stats.subsetProblem = 'no subset measured'
      return r
    })
    const text = summaryMarkdown(buildReport({ ...input, records: oneSize, sources: [] }))
    expect(text).toContain(
      escapeMarkdown(
        '4 nodes vs 1: NO VERDICT (nothing measured for one node: no 0/1 task on the whole input, and shard 0: no size model: no subset measured).',
      ),
    )
  })

  test("one host's run keeps its summary as it was: no fleet section", async () => {
    const demo = buildReport(await loadDemo())
    expect(demo.fleet).toBeNull()
    expect(summaryMarkdown(demo)).not.toContain('## Fleet')
    expect(fleetTerminalLines(demo.fleet)).toEqual([])
  })
})

describe('summary.json and the terminal', () => {
  test('summary.json holds the fleet and validates against its schema', () => {
    const json = JSON.parse(summaryJson(report))
    expect(ReportJsonSchema.safeParse(json).success).toBe(true)
    expect(json.fleet.comparison.models.find((m: { badNodes: string[] }) => m.badNodes.length > 0).badNodes).toEqual([
      'node-04',
    ])
    expect(json.fleet.shardRuns[0].vsOneNode.state).toBe('judged')
    const broken = {
      ...json,
      fleet: { ...json.fleet, shardRuns: [{ ...json.fleet.shardRuns[0], vsOneNode: { state: 'maybe' } }] },
    }
    expect(ReportJsonSchema.safeParse(broken).success).toBe(false)
  })

  test('the terminal prints the fleet, each bad node and each sharded run', () => {
    const lines = terminalSummary(report, '/out', ['a']).filter((l) => l.startsWith('gpu-report: fleet'))
    expect(lines[0]).toBe('gpu-report: fleet: 11 host(s), 2 GPU model(s), 3 directory(ies), 1 sharded run(s)')
    expect(lines.filter((l) => l.includes('BAD NODE'))).toEqual([
      expect.stringMatching(/^gpu-report: fleet BAD NODE node-04 \(NVIDIA H200 \(fake\)\) on cpu tiny, 20 seqs: /),
    ])
    expect(lines.filter((l) => l.startsWith(`gpu-report: fleet ${SHARD_RUN_ID}: `))).toHaveLength(5)
  })
})

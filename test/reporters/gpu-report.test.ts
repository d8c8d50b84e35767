// End to end: a real vitest run whose cases write known records, reported by GpuReportReporter with a history database
// named by VIRNUCPRO_BENCH_HISTORY (a real SQLite file with a planted step); then every report file is checked for its
// format, and the HTML is parsed by a real browser (Debian's chromium).
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ReportJsonSchema } from '../../src/report/render/json.ts'
import { REPORT_FILES } from '../../src/report/write.ts'
import { readInvocations } from '../../src/results/invocations.ts'
import { dumpDom, skipWithoutChromium } from '../report/support/chromium.ts'
import { expectBmf, expectGithubBenchmark, expectTrace } from '../report/support/formats.ts'
import { syntheticHeadlineHistory } from '../report/support/history.ts'

const RUN_ID = '2026-03-03T10-00-00Z-beef'
let work: string
let out: string
let stdout: string
let exitCode: number | undefined

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'gpu-report-'))
  out = join(work, 'reports')
  const history = syntheticHeadlineHistory(work, {
    names: ['wall/1 GPU', 'capacity/1/perf01/6000000'],
    steps: [{ metrics: ['wall/1 GPU'], atRun: 15, factor: 1.4 }],
  })
  const result = await execa('npx', ['vitest', 'run', '--root', 'test/reporters/fixtures/gpu-report'], {
    reject: false,
    env: {
      CI: 'true',
      GPU_REPORT_OUT: out,
      VIRNUCPRO_BENCH_RESULTS_DIR: join(work, 'results'),
      VIRNUCPRO_BENCH_RUN_ID: RUN_ID,
      GITHUB_STEP_SUMMARY: join(work, 'step.md'),
      VIRNUCPRO_BENCH_HISTORY: history,
    },
  })
  stdout = result.stdout
  exitCode = result.exitCode
}, 120_000)
afterAll(() => rm(work, { recursive: true, force: true }))

const read = (name: string) => readFile(join(out, name), 'utf8')

describe('gpu-report reporter on a real vitest run', () => {
  test('the run fails (one case fails on purpose) and the closing summary line stays last', () => {
    expect(exitCode).toBe(1)
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('vitest: 3 passed, 1 failed, 1 skipped')
  })

  test('prints one line per suite, the invalid file, and where the reports are; says the run failed', () => {
    const lines = stdout.split('\n').filter((l) => l.startsWith('gpu-report:'))
    expect(lines[0]).toMatch(/^gpu-report: FAILED: some tests failed/)
    expect(lines.filter((l) => /^gpu-report: (FAIL|FAILED|SKIPPED|PASS)\s/.test(l))).toHaveLength(5)
    expect(lines.some((l) => l.includes('1 invalid record file(s)') && l.includes('zz-truncated.json'))).toBe(true)
    expect(lines.at(-1)).toContain(`13 reports in ${out}`)
  })

  // Layout changed deliberately (issue 36): the capacity answer's sentence, then its hours and k-vs-1 tables; issue
  // 44: how it stopped (this record ran no design), then each undecided verdict's reason.
  test('prints the capacity answer: its sentence, hours per configuration, and the speedup for k > 1', () => {
    const lines = stdout.split('\n').filter((l) => l.startsWith('gpu-report: capacity '))
    expect(lines[0]).toMatch(
      /^gpu-report: capacity capacity, .*: UNCHECKED \(no held-out run; judged once, no design: 2 of 9 verdicts undecided\): 6 M sequences take 46\.4 h \[41\.5, 51\.3\] on 1 worker \(over 10 h: FAIL\)/,
    )
    // Issue 58: each configuration's reason for UNCHECKED first, then each undecided verdict's.
    expect(lines[1]).toMatch(/^gpu-report: capacity {5}UNCHECKED, 1 worker: no held-out run: .*; to check it: /)
    expect(lines[3]).toMatch(
      /^gpu-report: capacity {5}PERF-01 on 2 workers at 6,000,000 sequences: UNDECIDED: .*; to decide it: /,
    )
    expect(lines).toContainEqual(
      expect.stringMatching(/^gpu-report: capacity +1 worker +0\.349 .* PASS +46\.4 .* FAIL$/),
    )
    expect(lines).toContainEqual(
      expect.stringMatching(/^gpu-report: capacity +2 workers +1\.36 \[0\.58, 4\.67\] +>= 1\.6/),
    )
  })

  test('writes every report file of ARCHITECTURE.md', async () => {
    for (const name of REPORT_FILES) expect((await read(name)).length, name).toBeGreaterThan(0)
  })

  test('summary.md matches its snapshot (run dir path normalized)', async () => {
    const text = (await read('summary.md')).replaceAll(work, '<WORK>')
    expect(text).toMatchSnapshot()
  })

  test('summary.json is valid against the report schema and lists the truncated file', async () => {
    const json = JSON.parse(await read('summary.json'))
    expect(ReportJsonSchema.safeParse(json).success).toBe(true)
    expect(json.invalid).toHaveLength(1)
    expect(json.invalid[0].reason).toMatch(/not valid JSON/)
    expect(json.counts).toEqual({ records: 5, completed: 3, failed: 1, skipped: 1, partial: 0, invalid: 1 })
    expect(json.capacity.entries.map((e: { recordId: string }) => e.recordId)).toEqual(['capacity-1-worker-2-workers'])
  })

  test('markup from names and stages never reaches HTML or markdown unescaped', async () => {
    for (const name of ['index.html', 'summary.md', 'bottleneck.md', 'capacity.md']) {
      const text = await read(name)
      expect(text, name).not.toMatch(/<script|<img|<b>/i)
    }
    expect(await read('summary.md')).toContain('&lt;script&gt;alert\\(1\\)&lt;/script&gt; \\| \\`tick\\` \\*bold\\*')
  })

  test('index.html parses in chromium and holds the SVG charts', async (context) => {
    skipWithoutChromium(context)
    const dom = await dumpDom(join(out, 'index.html'))
    expect(dom).toContain('<h1>VirNucPro benchmark report</h1>')
    const svgs = dom.match(/<svg[\s>]/g) ?? []
    // capacity + stage breakdown + scaling curve + 2 timelines (1 GPU, 2 GPUs)
    expect(svgs.length).toBeGreaterThanOrEqual(5)
    const capacity = dom.slice(dom.indexOf('<h2>Capacity'), dom.indexOf('<h2>PERF-02'))
    expect(capacity.match(/aria-roledescription="line mark"/g)).toHaveLength(2)
    expect(capacity).toMatch(/<line aria-label="wall time \(log scale\): 10"[^>]*stroke="#cf222e"/)
    expect(dom).not.toMatch(/<script/i)
  })

  test('with VIRNUCPRO_BENCH_HISTORY: a trend chart per headline metric and one dashed rule per change point', async (context) => {
    skipWithoutChromium(context)
    const dom = await dumpDom(join(out, 'index.html'))
    const trends = dom.slice(dom.indexOf('<h2>Trends over the history</h2>'), dom.indexOf('<h2>Time per stage'))
    expect(trends.match(/<div class="chart trend"><svg/g)).toHaveLength(2)
    expect(trends.match(/<line [^>]*stroke="#cf222e" stroke-width="1.5" stroke-dasharray="6,3"/g)).toHaveLength(1)
  })

  test('with VIRNUCPRO_BENCH_HISTORY: the console names the change points found in the headline series', () => {
    expect(stdout).toMatch(/^gpu-report: trends: 1 change point\(s\) \(1 regression\(s\)\) in 2 headline series of /m)
  })

  test('trace.json loads as Chrome/Perfetto trace events', async () => {
    expectTrace(JSON.parse(await read('trace.json')))
  })

  test('bench.bmf.json and github-benchmark.json match their formats', async () => {
    expectBmf(JSON.parse(await read('bench.bmf.json')))
    expectGithubBenchmark(JSON.parse(await read('github-benchmark.json')))
  })

  test('how the run ended is stored beside its records, so `report` rebuilds the same summary', async () => {
    const runDir = join(work, 'results', RUN_ID)
    const { invocations } = await readInvocations(runDir)
    expect(invocations).toEqual([
      expect.objectContaining({ outcome: { state: 'failed', note: expect.stringMatching(/^some tests failed/) } }),
    ])
    const rebuilt = join(work, 'rebuilt')
    const result = await execa(process.execPath, ['src/cli.ts', 'report', runDir, '--out', rebuilt], { reject: false })
    expect(result.exitCode, result.stderr).toBe(0)
    const summary = await readFile(join(rebuilt, 'summary.md'), 'utf8')
    expect(summary).toContain('> **FAILED: rebuilt from stored records: 1 of 1 vitest invocation')
  })

  test('the step summary is appended to GITHUB_STEP_SUMMARY', async () => {
    const step = await readFile(join(work, 'step.md'), 'utf8')
    expect(step).toBe(await read('summary.md'))
  })
})

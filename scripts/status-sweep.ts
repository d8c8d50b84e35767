/**
 * Issue 58's sweep: bad inputs and faults through the capacity answer's every path, on the CPU (the reference pipeline,
 * a fake NVML), each case judged by what a planner who trusts one word would need:
 * - `clear`: a refusal or failure in one line naming what and where, exit code not 0, no stack trace;
 * - `fine`: an answer whose status every reader of its directory tells alike (the suite's console, `report`,
 *   `capacity` text and `--json`), FINAL only with a held-out check inside, UNCHECKED and UNDECIDED with their reason;
 * - `unclear`: an answer or refusal that does not say why (a stack trace, UNCHECKED without its reason line);
 * - `wrong`: two readers disagree, FINAL without a check, a decided verdict on an interval held at zero, an output
 *   written where it was refused;
 * - `loss`: a file of a run directory changed by a reader.
 *
 *   node scripts/status-sweep.ts OUT_DIR    # ~25 min on 2 cores; writes OUT_DIR/sweep.md (the table) and a log a case
 *
 * Needs python3 with torch (the reference pipeline) and cc (the fake NVML), as the integration tests do.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { gunzipSync } from 'node:zlib'
import { createFakeNvml } from '../test/support/fake-nvml.ts'

type Outcome = 'clear' | 'fine' | 'unclear' | 'wrong' | 'loss'
interface Row {
  id: string
  klass: string
  what: string
  outcome: Outcome
  seen: string
}

const ROOT = resolve(import.meta.dirname, '..')
const OUT = resolve(process.argv[2] ?? 'status-sweep')
mkdirSync(OUT, { recursive: true })
const rows: Row[] = []
const GIB = 2 ** 30
const fake = createFakeNvml({
  devices: [{ name: 'NVIDIA H100 (fake)', memTotalBytes: 80 * GIB, memUsedBytes: 2 * GIB, utilGpuPct: 90 }],
})

const STACK = /^\s+at .+:\d+:\d+\)?$/m
const node = process.execPath

function run(args: string[], env: Record<string, string> = {}, timeoutMs = 600_000) {
  const r = spawnSync(node, args, {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', ...env },
    encoding: 'utf8',
    timeout: timeoutMs,
    maxBuffer: 64 * 2 ** 20,
  })
  return { code: r.status ?? -1, out: stripVTControlCharacters(`${r.stdout ?? ''}${r.stderr ?? ''}`) }
}

function sample(name: string, records: number): string {
  const dir = join(OUT, 'samples', name)
  if (!existsSync(join(dir, 'part-001.fa')))
    run([
      'src/cli.ts',
      'fixtures',
      'generate',
      '--preset',
      'TINY',
      '--records',
      String(records),
      '--seed',
      '58',
      '--out',
      dir,
    ])
  return join(dir, 'part-001.fa')
}

/** The env of a capacity invocation on the CPU into `work`. */
function capEnv(work: string, over: Record<string, string>): Record<string, string> {
  return {
    ...fake.env,
    VIRNUCPRO_BENCH_DEVICE: 'cpu',
    VIRNUCPRO_BENCH_TARGET: 'reference',
    VIRNUCPRO_BENCH_MODEL_SCALE: 'tiny',
    VIRNUCPRO_BENCH_PRESET: 'TINY',
    VIRNUCPRO_BENCH_RUNS: '2',
    VIRNUCPRO_BENCH_WARMUP: '0',
    VIRNUCPRO_BENCH_MONITOR_INTERVAL_MS: '50',
    VIRNUCPRO_BENCH_RESULTS_DIR: join(work, 'results'),
    VIRNUCPRO_BENCH_REPORTS_DIR: join(work, 'reports'),
    VITEST_SUMMARY_FILE: '',
    ...over,
  }
}

const CAP = [
  'node_modules/vitest/vitest.mjs',
  'run',
  '--project',
  'gpu',
  'benchmarks/scaling.gpu.test.ts',
  '-t',
  'capacity',
]
const word = (s: string | undefined) => /^(FINAL|UNCHECKED|UNDECIDED|PROVISIONAL)/.exec(s ?? '')?.[1] ?? null

/** Every file of a directory with its hash: what a reader must leave as it was. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.isFile()) out.set(p, createHash('sha256').update(readFileSync(p)).digest('hex'))
    }
  }
  if (existsSync(dir)) walk(dir)
  return out
}
const changed = (a: Map<string, string>, b: Map<string, string>) =>
  [...a].filter(([p, h]) => b.get(p) !== h).map(([p]) => p)

/** The run directories under a results directory. */
const runDirs = (results: string) =>
  existsSync(results)
    ? readdirSync(results)
        .map((n) => join(results, n))
        .filter((p) => statSync(p).isDirectory())
    : []

/** The statuses every reader of `dir` tells, and what is wrong with them. */
function readersOf(dir: string, console: string): { words: Record<string, string | null>; problems: string[] } {
  const before = snapshot(dir)
  const text = run(['src/cli.ts', 'capacity', dir])
  const jsonFile = join(OUT, 'json', `${createHash('sha1').update(dir).digest('hex').slice(0, 8)}.json`)
  mkdirSync(join(OUT, 'json'), { recursive: true })
  rmSync(jsonFile, { force: true })
  const json = run(['src/cli.ts', 'capacity', dir, '--json', jsonFile])
  const rep = join(OUT, 'reports', createHash('sha1').update(dir).digest('hex').slice(0, 8))
  rmSync(rep, { recursive: true, force: true })
  run(['src/cli.ts', 'report', dir, '--out', rep])
  const problems: string[] = []
  const lost = changed(before, snapshot(dir))
  if (lost.length > 0) problems.push(`loss: ${lost.join(', ')}`)
  let answer: { statusText?: string; decisions?: { state: string; ci: { low: number } | null; kind: string }[] } = {}
  try {
    answer = JSON.parse(readFileSync(jsonFile, 'utf8')).answer ?? {}
  } catch {
    /* no JSON: the capacity text says why */
  }
  const summary = existsSync(join(rep, 'summary.md')) ? readFileSync(join(rep, 'summary.md'), 'utf8') : ''
  const consoleLine = /gpu-report: capacity capacity, [^:]*: (\S+)/.exec(console)?.[1]
  const words = {
    console: word(consoleLine),
    capacity:
      word(
        text.out
          .split('\n')
          .find((l) => /^(== |)(FINAL|UNCHECKED|UNDECIDED|PROVISIONAL)/.test(l))
          ?.replace(/^== .*/, ''),
      ) ?? word(text.out.split('\n').find((l) => /^(FINAL|UNCHECKED|UNDECIDED|PROVISIONAL)/.test(l))),
    json: word(answer.statusText),
    // The answer's own line: the first bold word after the summary's answer heading (a note above it is bold too).
    report: word(/\*\*([A-Z]+)/.exec(summary.slice(Math.max(0, summary.indexOf('## The capacity answer'))))?.[1]),
  }
  const seen = new Set(Object.values(words).filter((w) => w !== null))
  if (seen.size > 1) problems.push(`wrong: readers disagree ${JSON.stringify(words)}`)
  const silent = Object.entries(words).filter(([k, w]) => w === null && (k !== 'console' || console !== ''))
  if (silent.length > 0 && seen.size > 0)
    problems.push(`unclear: no status from ${silent.map(([k]) => k).join(', ')} (${text.out.split('\n').slice(-1)[0]})`)
  for (const d of answer.decisions ?? [])
    if (d.kind !== 'utilization' && d.state !== 'undecided' && d.ci && d.ci.low <= 0)
      problems.push(`wrong: a decided ${d.kind} verdict on an interval held at zero`)
  if (words.json === 'FINAL' && !/inside the interval|\| yes \|/.test(summary + text.out))
    problems.push('wrong: FINAL without a held-out check inside')
  if (words.json === 'UNCHECKED' && !/UNCHECKED, .*: .*; to check it: /.test(text.out))
    problems.push('unclear: UNCHECKED without its reason line')
  if (STACK.test(text.out) || STACK.test(json.out)) problems.push('unclear: a stack trace from capacity')
  return { words, problems }
}

function add(id: string, klass: string, what: string, outcome: Outcome, seen: string) {
  rows.push({ id, klass, what, outcome, seen: seen.replace(/\|/g, '\\|').replace(/\s+/g, ' ').slice(0, 300) })
  console.log(`${id} [${klass}] ${outcome}: ${what} -- ${seen.slice(0, 200)}`)
}

/** A suite invocation whose answer every reader must tell alike. */
function answerCase(
  id: string,
  klass: string,
  what: string,
  over: Record<string, string>,
  expect?: RegExp,
  work = join(OUT, id),
) {
  const r = run(CAP, capEnv(work, over), 900_000)
  writeFileSync(join(OUT, `${id}.log`), r.out)
  const dirs = runDirs(join(work, 'results'))
  const problems: string[] = []
  if (STACK.test(r.out) && !/AssertionError/.test(r.out)) problems.push('unclear: a stack trace on the console')
  if (expect && !expect.test(r.out)) problems.push(`unclear: the console lacks ${expect}`)
  const words: string[] = []
  for (const d of dirs) {
    const readers = readersOf(d, r.out)
    problems.push(...readers.problems)
    words.push(JSON.stringify(readers.words))
  }
  const worst = problems.find((p) => p.startsWith('loss')) ?? problems.find((p) => p.startsWith('wrong')) ?? problems[0]
  const outcome: Outcome = worst ? (worst.split(':')[0] as Outcome) : 'fine'
  add(id, klass, what, outcome, worst ?? `${words.join(' ')}${expect ? `; console says ${expect}` : ''}`)
  return { work, out: r.out, dirs }
}

/** A settings refusal: one line naming what, exit not 0, no stack trace, nothing measured. */
function refusalCase(id: string, klass: string, what: string, over: Record<string, string>, line: RegExp) {
  const work = join(OUT, id)
  const r = run(CAP, capEnv(work, over), 300_000)
  writeFileSync(join(OUT, `${id}.log`), r.out)
  const measured = runDirs(join(work, 'results')).some((d) => existsSync(join(d, 'work', 'measurements')))
  const outcome: Outcome =
    r.code !== 0 && line.test(r.out) && !STACK.test(r.out) && !measured
      ? 'clear'
      : line.test(r.out)
        ? 'unclear'
        : 'wrong'
  add(id, klass, what, outcome, r.out.split('\n').find((l) => line.test(l)) ?? `exit ${r.code}: ${r.out.slice(-200)}`)
}

/**
 * A sample no plan can split: a note before any run, the capacity test failing in that one line, the file's other
 * tests skipping with it, nothing measured, exit not 0.
 */
function planFailCase(id: string, what: string, input: string, line: RegExp) {
  const work = join(OUT, id)
  const r = run(CAP, capEnv(work, { VIRNUCPRO_BENCH_INPUT: input }), 300_000)
  writeFileSync(join(OUT, `${id}.log`), r.out)
  const noted = new RegExp(`note: .*${line.source}`).test(r.out)
  const failed = new RegExp(`CapacityPlanError: .*${line.source}`).test(r.out)
  const skipped = new RegExp(`skipped .*: no capacity runs to read: .*${line.source}`).test(r.out)
  const outcome: Outcome = r.code !== 0 && noted && failed && skipped && !STACK.test(r.out) ? 'clear' : 'unclear'
  add(
    id,
    '6 small samples',
    what,
    outcome,
    r.out.split('\n').find((l) => l.startsWith('CapacityPlanError')) ?? r.out.slice(-200),
  )
}

/** A reader's output target: refused in one line and nothing there changed, or written where it may be. */
function targetCase(id: string, what: string, args: string[], runDir: string, refused: boolean) {
  const before = snapshot(runDir)
  const r = run(args)
  const lost = changed(before, snapshot(runDir))
  const outcome: Outcome =
    lost.length > 0
      ? 'loss'
      : refused
        ? r.code === 2 && !STACK.test(r.out) && /run directory/.test(r.out)
          ? 'clear'
          : r.code === 0
            ? 'wrong'
            : 'unclear'
        : r.code === 0
          ? 'fine'
          : 'wrong'
  add(id, '5 output targets', what, outcome, lost.length ? `changed: ${lost.join(', ')}` : (r.out.split('\n')[0] ?? ''))
}

// --- the cases ---------------------------------------------------------------------------------------------------
const s1 = sample('s1', 1)
const s3 = sample('s3', 3)
const s4 = sample('s4', 4)
const s32 = sample('s32', 32)
const s40 = sample('s40', 40)
const s64 = sample('s64', 64)
const s64b = sample('s64b', 65)
const s200 = sample('s200', 200)
const s1002 = sample('s1002', 1002)

// 2: no FINAL without a check, whatever the path.
answerCase(
  'A01',
  '2 no check',
  "budget 1 (doctor's least): no design, no held-out run",
  { VIRNUCPRO_BENCH_INPUT: s64, VIRNUCPRO_BENCH_SIZES: '16,32', VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '1' },
  /UNCHECKED, 1 GPU, v2\.0 \(cpu\): no held-out run: the budget leaves no GPU-minutes beyond the planned runs/,
)
answerCase(
  'A02',
  '2 no check',
  'CAPACITY_DIRECT=2 on a 1-GPU host',
  {
    VIRNUCPRO_BENCH_INPUT: s64,
    VIRNUCPRO_BENCH_SIZES: '16,32',
    VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '3',
    VIRNUCPRO_BENCH_CAPACITY_DIRECT: '2',
  },
  /none held out: the answer cannot read FINAL/,
)
answerCase(
  'A03',
  '2 no check',
  'a preset (no user sample) with SIZES: a generated size held out',
  { VIRNUCPRO_BENCH_SIZES: '8,16', VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '3' },
  /held out: 32 records \(a generated size twice the largest\)/,
)
// 3: the held-out size is never fitted.
const a04 = answerCase(
  'A04',
  '3 held-out never fitted',
  'sample 64, sizes 16/32, budget 3: the design stays below 43',
  { VIRNUCPRO_BENCH_INPUT: s64, VIRNUCPRO_BENCH_SIZES: '16,32', VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '3' },
  /64 seqs direct/,
)
if (/, (4[3-9]|5\d|6\d) seqs(?! direct)/.test(a04.out))
  add('A04b', '3 held-out never fitted', 'no fitted size at or above 64/1.5', 'wrong', 'a fitted size >= 43')
else
  add(
    'A04b',
    '3 held-out never fitted',
    'no fitted size at or above 64/1.5',
    'fine',
    'every fitted size under 43 records',
  )
answerCase(
  'A05',
  '3 held-out never fitted',
  'sample 1,002, planned, budget 4',
  { VIRNUCPRO_BENCH_INPUT: s1002, VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '4' },
  /capacity sizes: fitted at/,
)
answerCase(
  'A06',
  '3 held-out never fitted',
  'sizes 16/32 on a 40-record sample: no size above x1.5, said before the first run',
  { VIRNUCPRO_BENCH_INPUT: s40, VIRNUCPRO_BENCH_SIZES: '16,32', VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '3' },
  /capacity held-out check: none possible/,
)
answerCase(
  'A07',
  '3 held-out never fitted',
  'sizes 16/32 on a 32-record sample',
  { VIRNUCPRO_BENCH_INPUT: s32, VIRNUCPRO_BENCH_SIZES: '16,32', VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '2' },
  /none possible/,
)
// 6: plans a sample can support.
answerCase(
  'A08',
  '6 small samples',
  '200 records, planned: sizes x2 apart, said too small',
  { VIRNUCPRO_BENCH_INPUT: s200, VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '2' },
  /fitted at 25 \/ 50 \/ 100 records/,
)
answerCase(
  'A09',
  '6 small samples',
  '4 records, planned: sizes 1 / 2',
  { VIRNUCPRO_BENCH_INPUT: s4, VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '2' },
  /fitted at 1 \/ 2 records/,
)
planFailCase('R01', 'a 1-record sample', s1, /a sample of 1 record is too small/)
planFailCase('R02', 'a 3-record sample', s3, /a sample of 3 records is too small/)
refusalCase(
  'R03',
  '6 small samples',
  'sizes over the sample',
  { VIRNUCPRO_BENCH_INPUT: s64, VIRNUCPRO_BENCH_SIZES: '16,100' },
  /100 records is more than the sample's 64/,
)
refusalCase(
  'R04',
  '6 small samples',
  'sizes 500 / 501',
  { VIRNUCPRO_BENCH_SIZES: '500,501' },
  /500 and 501 are less than 1\.5x apart/,
)
refusalCase(
  'R05',
  '6 small samples',
  'sizes 16 / 20',
  { VIRNUCPRO_BENCH_SIZES: '16,20' },
  /16 and 20 are less than 1\.5x apart/,
)
// 4: answered already only for the same question (one pinned run id).
const pinned = join(OUT, 'pinned')
answerCase(
  'A10',
  '4 same question',
  'pin1, sizes 16/32',
  {
    VIRNUCPRO_BENCH_INPUT: s64,
    VIRNUCPRO_BENCH_SIZES: '16,32',
    VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '2',
    VIRNUCPRO_BENCH_RUN_ID: 'pin1',
  },
  undefined,
  pinned,
)
answerCase(
  'A11',
  '4 same question',
  'pin1 again, sizes 24/48: measured anew, said',
  {
    VIRNUCPRO_BENCH_INPUT: s64,
    VIRNUCPRO_BENCH_SIZES: '24,48',
    VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '2',
    VIRNUCPRO_BENCH_RUN_ID: 'pin1',
  },
  /answers another question .* is measured anew under/,
  pinned,
)
answerCase(
  'A12',
  '4 same question',
  'pin1 again, a new sample: measured anew, said',
  {
    VIRNUCPRO_BENCH_INPUT: s64b,
    VIRNUCPRO_BENCH_SIZES: '16,32',
    VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '2',
    VIRNUCPRO_BENCH_RUN_ID: 'pin1',
  },
  /(answers another question|measured under another key)/,
  pinned,
)
answerCase(
  'A13',
  '4 same question',
  'pin1 again, the first question: answered already',
  {
    VIRNUCPRO_BENCH_INPUT: s64,
    VIRNUCPRO_BENCH_SIZES: '16,32',
    VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '2',
    VIRNUCPRO_BENCH_RUN_ID: 'pin1',
  },
  /(answered already in this run|kept from earlier)/,
  pinned,
)
// A pinned run continued on another host: its answer was worked out under another key, so it is not taken.
const otherGpu = createFakeNvml({
  devices: [{ name: 'NVIDIA H200 (fake)', memTotalBytes: 141 * GIB, memUsedBytes: 2 * GIB, utilGpuPct: 90 }],
})
answerCase(
  'A13b',
  '4 same question',
  'pin1 again, the first question on another GPU: asked again, said',
  {
    ...otherGpu.env,
    VIRNUCPRO_BENCH_INPUT: s64,
    VIRNUCPRO_BENCH_SIZES: '16,32',
    VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '2',
    VIRNUCPRO_BENCH_RUN_ID: 'pin1',
  },
  /worked out under another key \(.*gpus \(was .*H100/,
  pinned,
)
otherGpu.remove()
answerCase(
  'A14',
  '4 same question',
  'pin1 again, a larger budget: measured anew',
  {
    VIRNUCPRO_BENCH_INPUT: s64,
    VIRNUCPRO_BENCH_SIZES: '16,32',
    VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '3',
    VIRNUCPRO_BENCH_RUN_ID: 'pin1',
  },
  /(answers another question|measured under another key)/,
  pinned,
)
// 9: reasons reach the console.
answerCase(
  'A15',
  '9 reasons',
  'a probe that crashes (crash-at ESM-2): one line, the other tests skip naming it',
  { VIRNUCPRO_BENCH_INPUT: s200, REFPIPE_INJECT: 'crash-at=ESM-2 Feature Extraction' },
  /structure probe .* did not complete/,
)
// 1: killed during the held-out run, continued.
const cut = join(OUT, 'cut')
{
  const env = capEnv(cut, {
    VIRNUCPRO_BENCH_INPUT: s1002,
    VIRNUCPRO_BENCH_SIZES: '100,200',
    VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '2',
    VIRNUCPRO_BENCH_RUN_ID: 'cut1',
  })
  spawnSync('timeout', ['-s', 'TERM', '25', node, ...CAP], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', ...env },
  })
}
answerCase(
  'A16',
  '1 refit and held-out',
  'cut by SIGTERM at 25 s, the same command again',
  {
    VIRNUCPRO_BENCH_INPUT: s1002,
    VIRNUCPRO_BENCH_SIZES: '100,200',
    VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '2',
    VIRNUCPRO_BENCH_RUN_ID: 'cut1',
  },
  undefined,
  cut,
)
answerCase('A17', '1 refit and held-out', 'sample 1,002, sizes 250/400, budget 2', {
  VIRNUCPRO_BENCH_INPUT: s1002,
  VIRNUCPRO_BENCH_SIZES: '250,400',
  VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '2',
})
answerCase('A18', '1 refit and held-out', 'width stop rule', {
  VIRNUCPRO_BENCH_INPUT: s64,
  VIRNUCPRO_BENCH_SIZES: '16,32',
  VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '2',
  VIRNUCPRO_BENCH_CAPACITY_STOP: 'width',
})
answerCase('A19', '1 refit and held-out', 'one run a size', {
  VIRNUCPRO_BENCH_INPUT: s64,
  VIRNUCPRO_BENCH_SIZES: '16,32',
  VIRNUCPRO_BENCH_RUNS: '1',
  VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '2',
})
// 7: a forecast from comparable work only (pinned results of A01's budget-1 plan, then the default budget).
{
  const work = join(OUT, 'forecast')
  const base = { VIRNUCPRO_BENCH_INPUT: s64, VIRNUCPRO_BENCH_SIZES: '16,32' }
  run(CAP, capEnv(work, { ...base, VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '1' }))
  const r = run(CAP, capEnv(work, { ...base, VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '3' }), 900_000)
  const plan = r.out.split('\n').find((l) => l.startsWith('[plan] gpu project')) ?? ''
  // The budget-1 invocation took seconds: a forecast read from its ledger would say so; the prior or none is fine.
  const fromOther = /from (the|an) (last|earlier) invocation/.test(plan) && !/another plan|differ/.test(plan)
  add(
    'F01',
    '7 forecasts',
    'budget 1 then budget 3 into one results dir: no forecast from the other plan',
    fromOther ? 'wrong' : 'fine',
    plan,
  )
}
// 5: output targets never inside a run directory (pin1 from A10-A14).
const pin = join(pinned, 'results', 'pin1')
const record = runDirs(join(pinned, 'results')).length ? readdirSync(pin).find((f) => f.endsWith('.json')) : undefined
targetCase(
  'O01',
  '--json onto work/state.json of a pinned run',
  ['src/cli.ts', 'capacity', pin, '--json', join(pin, 'work', 'state.json')],
  pin,
  true,
)
targetCase(
  'O02',
  '--json into its journal folder',
  ['src/cli.ts', 'capacity', pin, '--json', join(pin, 'work', 'measurements', 'x.json')],
  pin,
  true,
)
targetCase(
  'O03',
  '--json onto its own record',
  ['src/cli.ts', 'capacity', pin, '--json', join(pin, record ?? 'x.json')],
  pin,
  true,
)
targetCase(
  'O04',
  '--json beside its records',
  ['src/cli.ts', 'capacity', pin, '--json', join(pin, 'refit.json')],
  pin,
  true,
)
targetCase('O05', 'report --out the run directory', ['src/cli.ts', 'report', pin, '--out', pin], pin, true)
targetCase('O06', 'report --out inside it', ['src/cli.ts', 'report', pin, '--out', join(pin, 'reports')], pin, true)
targetCase('O07', '--json outside', ['src/cli.ts', 'capacity', pin, '--json', join(OUT, 'refit.json')], pin, false)
targetCase('O08', 'report --out outside', ['src/cli.ts', 'report', pin, '--out', join(OUT, 'report-ok')], pin, false)

// 1: refits of one directory, each judged on its held-out runs as the suite judged its own fit.
function refitCase(id: string, what: string, args: string[], want: string, line: RegExp) {
  const r = run(['src/cli.ts', 'capacity', ...args])
  const got = word(r.out.split('\n').find((l) => /^(FINAL|UNCHECKED|UNDECIDED|PROVISIONAL)/.test(l))) ?? 'null'
  const outcome: Outcome = STACK.test(r.out)
    ? 'unclear'
    : got === 'FINAL' && want !== 'FINAL'
      ? 'wrong'
      : got === want && line.test(r.out)
        ? 'fine'
        : got === want
          ? 'unclear'
          : 'wrong'
  add(
    id,
    '1 refit and held-out',
    what,
    outcome,
    `${got}: ${r.out.split('\n').find((l) => line.test(l)) ?? r.out.split('\n')[0]}`,
  )
}
const a04dir = runDirs(join(OUT, 'A04', 'results'))[0]
if (a04dir) {
  const a04 = readFileSync(join(OUT, 'A04.log'), 'utf8')
  const status = word(/gpu-report: capacity capacity, [^:]*: (\S+)/.exec(a04)?.[1]) ?? 'FINAL'
  refitCase(
    'C01',
    'A04 refitted as stored: its held-out run checks it',
    [a04dir],
    status,
    /held out|inside the interval|UNDECIDED|FINAL/,
  )
  refitCase(
    'C02',
    'A04 fitted at 16 / 64: the 32-record runs lie within, no check',
    [a04dir, '--sizes', '16,64'],
    'UNCHECKED',
    /lie(s)? within the fitted sizes/,
  )
  refitCase(
    'C03',
    'A04 fitted at 16 / 32 and projected to 45 K and 1 M',
    [a04dir, '--sizes', '16,32', '--at', '45000,1000000'],
    status,
    /./,
  )
  refitCase(
    'C04',
    'A04 fitted at one size: refused in one line',
    [a04dir, '--sizes', '16'],
    'null',
    /no configuration has completed runs at two or more sizes/,
  )
}
const a01dir = runDirs(join(OUT, 'A01', 'results'))[0]
if (a01dir) {
  refitCase(
    'C05',
    'A01 (budget 1) refitted: UNCHECKED with the budget as why',
    [a01dir],
    'UNCHECKED',
    /UNCHECKED, .*budget/,
  )
  refitCase(
    'C06',
    'A01 fitted at 16 only, 32 left out below nothing: refused',
    [a01dir, '--sizes', '32'],
    'null',
    /two or more sizes/,
  )
}
const pinDir = join(OUT, 'pinned', 'results', 'pin1')
if (existsSync(pinDir))
  refitCase(
    'C07',
    'pin1 holding three questions: each architecture group read, no two 1-GPU fits mixed',
    [pinDir],
    'UNCHECKED',
    /UNCHECKED|FINAL|UNDECIDED/,
  )

// More refusals before any run.
refusalCase(
  'R06',
  '6 small samples',
  'one size',
  { VIRNUCPRO_BENCH_SIZES: '16' },
  /VIRNUCPRO_BENCH_SIZES.*not two or more distinct record counts/,
)
refusalCase(
  'R07',
  '6 small samples',
  'a size that is not a number',
  { VIRNUCPRO_BENCH_SIZES: '16,x' },
  /VIRNUCPRO_BENCH_SIZES/,
)
refusalCase(
  'R08',
  '2 no check',
  'a budget of 0',
  { VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '0' },
  /VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN/,
)
refusalCase(
  'R09',
  '2 no check',
  'CAPACITY_DIRECT=3 (no such GPU count)',
  { VIRNUCPRO_BENCH_CAPACITY_DIRECT: '3' },
  /VIRNUCPRO_BENCH_CAPACITY_DIRECT/,
)
refusalCase(
  'R10',
  '6 small samples',
  'an input that does not exist',
  { VIRNUCPRO_BENCH_INPUT: join(OUT, 'nothing.fa') },
  /VIRNUCPRO_BENCH_INPUT/,
)
{
  const bad = join(OUT, 'samples', 'bad.fa')
  writeFileSync(bad, '>r1\nACGT\nthis is not dna\n')
  refusalCase(
    'R11',
    '6 small samples',
    'a malformed FASTA',
    { VIRNUCPRO_BENCH_INPUT: bad },
    /bad\.fa:3:\d+: invalid character/,
  )
}
refusalCase(
  'R12',
  '6 small samples',
  'sizes over a 4-record sample',
  { VIRNUCPRO_BENCH_INPUT: s4, VIRNUCPRO_BENCH_SIZES: '2,8' },
  /8 records is more than the sample's 4/,
)

// More output targets: every command that writes where a user points it.
targetCase(
  'O09',
  'history add --db into the run directory',
  ['src/cli.ts', 'history', 'add', pin, '--db', join(pin, 'h.sqlite')],
  pin,
  true,
)
targetCase(
  'O10',
  'fixtures generate --out into the run directory',
  ['src/cli.ts', 'fixtures', 'generate', '--preset', 'TINY', '--records', '4', '--out', join(pin, 'f')],
  pin,
  true,
)
targetCase(
  'O11',
  'capacity --json onto a journal file',
  [
    'src/cli.ts',
    'capacity',
    pin,
    '--json',
    join(pin, 'work', 'measurements', readdirSync(join(pin, 'work', 'measurements'))[0] ?? 'm.jsonl'),
  ],
  pin,
  true,
)
targetCase(
  'O12',
  'report --out onto its record file',
  ['src/cli.ts', 'report', pin, '--out', join(pin, record ?? 'x.json')],
  pin,
  true,
)

// Stored results (docs/results): every record kept there (a record gzipped beside its README, or results tarballs),
// unpacked into a run directory of its own and read by capacity and report: one headline each, the same in both.
const stored: { dir: string; run: string; words: Record<string, string | null>; problem: string | null }[] = []
for (const dir of readdirSync(join(ROOT, 'docs', 'results')).sort()) {
  const at = join(ROOT, 'docs', 'results', dir)
  const into = join(OUT, 'stored', dir)
  rmSync(into, { recursive: true, force: true })
  mkdirSync(into, { recursive: true })
  const gzipped: string[] = []
  for (const f of readdirSync(at)) {
    const file = join(at, f)
    if (f.endsWith('.json.gz')) gzipped.push(f)
    else if (/\.(tgz|tar\.gz)$/.test(f)) spawnSync('tar', ['-xzf', file, '-C', into])
    else if (f.endsWith('.tar.xz')) spawnSync('tar', ['-xJf', file, '-C', into])
  }
  // A run directory: one holding a capacity record, or a run's work (its journal: a partial record is read from it).
  const runs: string[] = []
  const holdsRecord = (d: string) => readdirSync(d).some((f) => /^capacity.*\.json$/.test(f))
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }))
      if (e.isDirectory() && e.name !== 'work' && e.name !== 'invocations') walk(join(d, e.name))
    if (holdsRecord(d) || existsSync(join(d, 'work', 'measurements'))) runs.push(d)
  }
  walk(into)
  // A gzipped record beside its runs' tarball goes into the run directory that lacks it; else into one of its own.
  for (const f of gzipped) {
    const name = f.replace(/\.gz$/, '')
    if (runs.some((r) => existsSync(join(r, name)))) continue
    const lacking = runs.filter((r) => !holdsRecord(r))
    const run = lacking.length === 1 ? lacking[0]! : join(into, name.replace(/\.json$/, ''))
    mkdirSync(run, { recursive: true })
    writeFileSync(join(run, name), gunzipSync(readFileSync(join(at, f))))
    if (!runs.includes(run)) runs.push(run)
  }
  if (runs.length === 0) {
    stored.push({ dir, run: '-', words: {}, problem: null })
    continue
  }
  for (const run of runs) {
    const readers = readersOf(run, '')
    delete readers.words.console
    stored.push({
      dir,
      run: run.slice(into.length + 1) || '.',
      words: readers.words,
      problem: readers.problems[0] ?? null,
    })
    const worst = readers.problems[0]
    add(
      `D-${dir}`,
      '2 stored records',
      `docs/results/${dir} (${run.slice(into.length + 1) || '.'})`,
      worst ? (worst.split(':')[0] as Outcome) : 'fine',
      worst ?? JSON.stringify(readers.words),
    )
  }
}
writeFileSync(
  join(OUT, 'stored.md'),
  `${[
    '| docs/results | run directory | capacity | capacity --json | report |',
    '|---|---|---|---|---|',
    ...stored.map((x) =>
      x.run === '-'
        ? `| ${x.dir} | no result records kept (reports and logs only) | - | - | - |`
        : `| ${x.dir} | ${x.run} | ${x.words.capacity ?? '-'} | ${x.words.json ?? '-'} | ${x.words.report ?? '-'}${x.problem ? ` (${x.problem})` : ''} |`,
    ),
  ].join('\n')}\n`,
)

const counts = Object.fromEntries(
  (['clear', 'fine', 'unclear', 'wrong', 'loss'] as const).map((o) => [o, rows.filter((r) => r.outcome === o).length]),
)
const table = [
  `${rows.length} cases: ${Object.entries(counts)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ')}`,
  '',
  '| case | class | what | outcome | seen |',
  '|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.id} | ${r.klass} | ${r.what} | ${r.outcome} | ${r.seen} |`),
].join('\n')
writeFileSync(join(OUT, 'sweep.md'), `${table}\n`)
// The folder docs/results keeps: how the sweep judges, its cases, the stored records read.
writeFileSync(
  join(OUT, 'README.md'),
  `# Issue 58's sweep: one status on every path (\`node scripts/status-sweep.ts OUT\`)

The reference pipeline on the CPU and a fake NVML, on this repository's code. Each case is read by every reader of its
directory: the suite's console line, \`capacity\` text and \`--json\`, \`report\`'s summary.md.
- \`fine\`: every reader tells one status; FINAL only with a held-out check inside; UNCHECKED with its reason line.
- \`clear\`: a refusal or failure in one line naming what and where, exit not 0, no stack trace, nothing measured.
- \`unclear\`: an answer or refusal without its reason, or a stack trace. \`wrong\`: readers disagree, FINAL without a
  check, a decided verdict on an interval held at zero, a refused output written. \`loss\`: a run directory's file
  changed by a reader.

## The cases

${table}

## Stored results

Every record kept under docs/results, unpacked from its folder's gzipped record and results tarballs (a record with
the runs of its tarball; a run's journal alone read as its partial record), read by \`capacity\`, \`capacity --json\`
and \`report\`.

${readFileSync(join(OUT, 'stored.md'), 'utf8')}`,
)
console.log(table.split('\n')[0])
fake.remove()

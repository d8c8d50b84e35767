/**
 * The capacity answer, computed once from a capacity analysis (a finished record's, or a provisional one refitted
 * from the runs kept so far) and read by every output: the console's line a run, capacity.md, summary.md,
 * bottleneck.md, perf02.md, index.html, the `capacity` command and its JSON. It answers first ("will 6 M finish in
 * 10 h on k GPUs; does a second GPU pay; which GPU counts this host could not measure"), then gives the evidence:
 * hours at 45 K and 6 M per GPU count with their intervals, k GPUs against 1, each GPU stage's utilization, the time
 * by stage at 6 M (the stage that holds it back), what to measure more of, memory, and the design's state.
 */
import { DECISION } from '../config/capacity-targets.ts'
import type { DecisionState } from '../measure/index.ts'
import type { Verdict, VerdictValue } from '../results/schema/index.ts'
import type { CapacityStats } from './analyze.ts'
import { ciText } from './answer-level.ts'
import { answerOpen, type OpenVerdict } from './answer-reasons.ts'
import { misfitText, sizesText } from './answer-sizes.ts'
import { headlineOf, statusTextOf } from './answer-state.ts'
import { type Decision, decisionWord } from './decisions.ts'
import { type HeldOutCheck, missedChecks, SETTLE_CLAUSE } from './held-out.ts'
import { type HeldOutState, heldOutStatus, type UncheckedReason } from './held-out-status.ts'

/** A figure in its display unit, with its interval's ends (null without one). */
export interface Figure {
  value: number
  low: number | null
  high: number | null
}

/** Whether the measurement has stopped; runs kept (measured runs, warm-ups apart) of those planned so far. */
export interface AnswerStatus {
  final: boolean
  keptRuns: number
  plannedRuns: number | null
  /** GPUs of the host, where known (NVML provenance; the live line: its largest planned count); else the most measured. */
  hostGpus?: number
  /**
   * The held-out check of a stopped measurement, computed by capacityAnswer from the analysis alone
   * (capacity/held-out-status.ts), never given by a caller: `inside` where every configuration's run beyond its fitted
   * sizes fell inside its projected interval, `missed` where one did not, `unchecked` otherwise.
   */
  check?: HeldOutState
}

export type { HeldOutState }

export interface GpuAnswer {
  gpuCount: number
  label: string
  /** The architecture its runs ran (issue 56), null where unknown (records written before it). */
  architecture: string | null
  typicalH: Figure | null
  productionH: Figure | null
  typical: DecisionState | null
  production: DecisionState | null
  /** Each stage's hours at 6 M, longest first, with its share of the wall time. */
  stages: { stage: string; hours: Figure; sharePct: number }[]
  /** The part whose spread makes most of the 6 M interval's width (its share of the variance). */
  measureMore: { part: string; sharePct: number } | null
  utilization: { stage: string; pct: Figure | null; state: DecisionState | null }[]
  /** Peak host memory of the pipeline's process tree and of one GPU at 6 M (GiB), with their verdicts. */
  memory: {
    hostGiB: Figure | null
    host: VerdictValue | null
    gpuGiB: Figure | null
    gpu: VerdictValue | null
    /** Peaks read but not projected: the sizes measured cannot support a figure there (capacity/memory.ts). */
    hostUnsupported?: boolean
    gpuUnsupported?: boolean
    /** Why, where a peak is not supported: the verdict's own words (issue 58: every "not supported" says why). */
    hostWhy?: string | null
    gpuWhy?: string | null
    /** The largest process's host memory at 6 M (issue 56: a v2.0 worker holds its embeddings), where recorded. */
    processGiB?: Figure | null
    process?: VerdictValue | null
    processWhy?: string | null
  }
}

export interface CapacityAnswer {
  status: AnswerStatus
  /** `FINAL` or `PROVISIONAL (n of m runs)` (capacity/answer-state.ts). */
  statusText: string
  /** The sentence's head: the status, and once stopped how, with its verdicts' states (`FINAL (design finished: ...)`). */
  headline: string
  /** The answer in one sentence, starting with the headline. */
  sentence: string
  /** Each verdict left undecided: why, and what would decide it (capacity/answer-reasons.ts). */
  open: OpenVerdict[]
  levelPct: number
  /** The looks the intervals' level spends alpha over (1: judged once). */
  looks: number
  /** The level named with why it is that level: `99.17% CI, Bonferroni over 6 looks` (capacity/answer-level.ts). */
  ciText: string
  /** What the intervals promise. */
  guarantee: string
  limitH: number
  typical: number
  production: number
  gpus: GpuAnswer[]
  comparisons: {
    gpuCount: number
    speedup: Figure | null
    threshold: number
    state: DecisionState | null
    /**
     * Where the k-GPU configuration ran another architecture than its 1-GPU baseline (records before issue 56: `--gpus
     * 0` ran v1.0, `--gpus 0,1` v2.0), which is which: `2 GPUs, v2.0 against 1 GPU, v1.0`; null like against like.
     */
    mixed: string | null
  }[]
  /** GPU counts of 1, 2, 4 and 8 this measurement has no answer for; the most it measured (what its host held at least). */
  notMeasured: number[]
  hostGpus: number
  decisions: Decision[]
  design: { rule: string; stop: string; looks: number; maxLooks: number; gpuMinutes: number; budget: number } | null
  /**
   * Each size run directly beside the fit (the user's whole sample: capacity/suite.ts measureDirect), its median
   * against the projection there (hours): the check a planner trusts the rest by.
   */
  direct: {
    label: string
    records: number
    runs: number
    measuredH: number
    projectedH: Figure | null
    errorPct: number | null
    insideCi: boolean | null
  }[]
  /** Every term the answer uses, defined. */
  definitions: string[]
  /** The held-out checks as the analysis made them (the `direct` rows are their figures in hours). */
  heldOutChecks: HeldOutCheck[]
  /** The sizes fitted and held out, and why (capacity/structure.ts); null where the record keeps no plan. */
  sizes: string | null
  /** Per configuration, the model's error out of sample its intervals beyond the largest size carry (capacity/misfit.ts). */
  misfit: { label: string; text: string }[]
  /** Where the answer is UNCHECKED: each configuration without a check that counts, why, and what would give it one. */
  unchecked: UncheckedReason[]
}

const GIB = 2 ** 30
const HOUR_MS = 3_600_000
const figureOf = (
  value: number | null | undefined,
  ci?: { low: number; high: number } | null,
  by = 1,
): Figure | null =>
  value === null || value === undefined || !Number.isFinite(value)
    ? null
    : { value: value * by, low: ci ? ci.low * by : null, high: ci ? ci.high * by : null }
const millions = (n: number) => (n >= 1e6 ? `${n / 1e6} M` : n >= 1e3 ? `${n / 1e3} K` : String(n))

/** `12.2 h [10.7, 14.0]`: a figure as every text output prints it. */
export function figureText(f: Figure | null, unit: 'h' | 'x' | '%' | 'GiB', digits = 1): string {
  if (!f) return 'not measured'
  const n = (x: number) => x.toFixed(digits)
  const u = unit === '%' ? '%' : unit === 'x' ? 'x' : ` ${unit}`
  return `${n(f.value)}${u}${f.low !== null && f.high !== null ? ` [${n(f.low)}, ${n(f.high)}]` : ''}`
}

export const DEFINITIONS = [
  'PERF-01: a sample finishes within the time limit (10 h) on the GPUs given',
  "PERF-02: a GPU stage's utilization (NVML's share of time a kernel ran) is at least 80%",
  'speedup (k GPUs against 1): the 1-GPU wall time over the k-GPU wall time for the same input (2.0x: twice as fast)',
  "PERF-03: 2 GPUs run at least 1.9x as fast as 1 (upstream's target); other GPU counts are held to the low end of their scaling band (4 GPUs 3.0x)",
  "what to measure more of: the part whose run-to-run spread makes most of the 6 M interval's width",
  'at threshold: an interval wholly within +-5% of its threshold (more runs would not move it off)',
]

function gpuAnswer(
  c: CapacityStats['configurations'][number],
  stats: CapacityStats,
  byId: Map<string, Verdict>,
  decided: Map<string, Pick<Decision, 'state'>>,
): GpuAnswer {
  const [typical, production] = stats.targets
  const at = (n: number | undefined) => c.at.find((a) => a.sequences === n)?.wallMs
  const hours = (n: number | undefined) => figureOf(at(n)?.estimate, at(n)?.ci, 1 / HOUR_MS)
  const wallAtProduction = at(production)?.estimate ?? 0
  const stages = (c.stagesAtProduction ?? [])
    .map((s) => ({
      stage: s.stage,
      hours: figureOf(s.ms.estimate, s.ms.ci, 1 / HOUR_MS)!,
      sharePct: wallAtProduction > 0 ? (100 * s.ms.estimate) / wallAtProduction : 0,
    }))
    .filter((s) => s.hours !== null)
    .sort((a, b) => b.hours.value - a.hours.value)
  const top = c.at.find((a) => a.sequences === production)?.dominant?.[0]
  const mem = (kind: 'host' | 'process' | 'gpu') => byId.get(`capacity/${c.gpuCount}/memory/${kind}/${production}`)
  const gib = (v: Verdict | undefined) => figureOf(v?.value, v?.ci, v?.unit === 'GiB' ? 1 : 1 / GIB)
  return {
    gpuCount: c.gpuCount,
    label: c.label,
    architecture: c.architecture ?? /, (v\d+(?:\.\d+)*)\b/.exec(c.label)?.[1] ?? null,
    typicalH: hours(typical),
    productionH: hours(production),
    typical: decided.get(`capacity/${c.gpuCount}/perf01/${typical}`)?.state ?? null,
    production: decided.get(`capacity/${c.gpuCount}/perf01/${production}`)?.state ?? null,
    stages,
    measureMore: top ? { part: top.part, sharePct: top.sharePct } : null,
    utilization: c.stages.map((s) => {
      const u = s.utilAt.find((x) => x.sequences === production)?.utilPct
      return {
        stage: s.stage,
        pct: figureOf(u?.estimate, u?.ci),
        state: decided.get(`capacity/${c.gpuCount}/perf02/${s.stage}/${production}`)?.state ?? null,
      }
    }),
    memory: {
      hostGiB: gib(mem('host')),
      host: mem('host')?.verdict ?? null,
      gpuGiB: gib(mem('gpu')),
      gpu: mem('gpu')?.verdict ?? null,
      hostUnsupported: unsupportedPeak(mem('host')),
      gpuUnsupported: unsupportedPeak(mem('gpu')),
      hostWhy: unsupportedPeak(mem('host')) ? notSupportedWhy(mem('host')!) : null,
      // Absent in records written before issue 56: nothing said of it.
      ...(mem('process') && {
        processGiB: gib(mem('process')),
        process: mem('process')!.verdict,
        processWhy: unsupportedPeak(mem('process')) ? notSupportedWhy(mem('process')!) : null,
      }),
      gpuWhy: unsupportedPeak(mem('gpu')) ? notSupportedWhy(mem('gpu')!) : null,
    },
  }
}

/** A configuration's label with its architecture where the label does not say it already: `1 GPU (v1.0)`. */
const withArchitecture = (label: string, architecture: string) =>
  label.includes(architecture) ? label : `${label} (${architecture})`

/** A memory verdict with no figure because the sizes measured cannot support one (its detail says why and what would). */
const unsupportedPeak = (v: Verdict | undefined) =>
  v !== undefined && v.value === null && /not supported/.test(v.detail)

/** The verdict's reason from `not supported` on (capacity/memory.ts unsupported): why, and what would support it. */
const notSupportedWhy = (v: Verdict) => v.detail.slice(v.detail.search(/not supported/))

const timeWords: Readonly<Record<DecisionState, string>> = {
  pass: 'within',
  fail: 'over',
  'at-threshold': 'at',
  undecided: 'undecided against',
}

/**
 * `2 GPUs not measured here; 8 GPUs not measured: a k-GPU answer needs a host of k GPUs`; a count the host holds reads
 * `not measured yet` while the measurement runs or was interrupted: its arm may still come.
 */
export function notMeasuredText(a: Pick<CapacityAnswer, 'notMeasured' | 'hostGpus' | 'status'>): string {
  const below = a.notMeasured.filter((k) => k <= a.hostGpus)
  const above = a.notMeasured.filter((k) => k > a.hostGpus)
  return [
    ...(below.length ? [`${below.join(' and ')} GPUs not measured ${a.status.final ? 'here' : 'yet'}`] : []),
    ...(above.length ? [`${above.join(' and ')} GPUs not measured: a k-GPU answer needs a host of k GPUs`] : []),
  ].join('; ')
}

/** The one sentence that answers, after its headline. */
function sentenceOf(a: Omit<CapacityAnswer, 'sentence'>): string {
  const at = millions(a.production)
  const perGpu = a.gpus.map(
    (g) =>
      `${figureText(g.productionH, 'h')} on ${g.label} (${g.production ? `${timeWords[g.production]} ${a.limitH} h${g.production === 'undecided' ? '' : `: ${decisionWord(g.production)}`}` : 'not judged'})`,
  )
  const pays = a.comparisons.map((cmp) => {
    const verb =
      cmp.state === 'pass'
        ? 'pays'
        : cmp.state === 'fail'
          ? 'does not pay'
          : cmp.state === 'at-threshold'
            ? 'pays just about'
            : 'may or may not pay'
    // Like against like unless said (issue 56): a mixed pair names which architecture is which.
    const who = cmp.mixed ? `${cmp.mixed} (mixed architectures)` : `${cmp.gpuCount} GPUs against 1`
    return `${who} ${verb} at ${at} (${figureText(cmp.speedup, 'x', 2)} against ${cmp.threshold}x)`
  })
  const missing = a.notMeasured.length > 0 ? `; ${notMeasuredText(a)}` : ''
  if (a.gpus.length === 0) return `${a.headline}: no configuration could be fitted yet${missing}.`
  const missed = a.status.check === 'missed' ? [...missedChecks(a.heldOutChecks).values()].map((m) => ` ${m}.`) : []
  return `${a.headline}: ${at} sequences take ${perGpu.join(' and ')}${pays.length > 0 ? `; ${pays.join('; ')}` : ''}${missing}.${missed.join('')}`
}

/**
 * The answer of one capacity analysis.
 * @param status whether the measurement stopped, and its runs (a partial record's: provisional).
 */
export function capacityAnswer(
  stats: CapacityStats,
  verdicts: readonly Verdict[],
  status: AnswerStatus,
): CapacityAnswer {
  const byId = new Map(verdicts.map((v) => [v.id, v]))
  // A record written before decisions reads its verdicts' states (inconclusive as undecided): never "not judged".
  const decided = new Map<string, Pick<Decision, 'state'>>()
  for (const v of verdicts) {
    const state =
      v.verdict === 'pass' || v.verdict === 'fail' ? v.verdict : v.verdict === 'inconclusive' ? 'undecided' : null
    if (state) decided.set(v.id, { state })
  }

  const checks = stats.direct ?? []
  // A stopped measurement is FINAL only on held-out checks inside, whatever path led here (issue 58): the status is
  // computed here, from the analysis, for every reader alike.
  const held = status.final ? heldOutStatus(stats) : null
  if (held) status = { ...status, check: held.state }
  // A missed check leaves every question of its GPU count undecided, in a record written so or not.
  const missed = missedChecks(checks)
  const decisions = (stats.decisions ?? []).map((d) => {
    const miss = d.from.map((k) => missed.get(k)).find((m) => m !== undefined)
    return miss && d.state !== 'undecided'
      ? { ...d, state: 'undecided' as const, why: miss, decideBy: miss.split(SETTLE_CLAUSE)[1] ?? d.decideBy }
      : d
  })
  for (const d of decisions) decided.set(d.id, d)
  const [typical, production] = [stats.targets[0] ?? 45_000, stats.targets.at(-1) ?? 6_000_000]
  const level = stats.ciLevel ?? 0.95
  const seq = stats.sequential
  // A measurement not yet stopped (no design in its stats) is judged at a look's level of the design it runs under
  // (analysis-options.ts: Bonferroni, 1 - alpha / looks): its looks read back from that level.
  const looks = seq?.maxLooks ?? Math.max(1, Math.round(DECISION.alpha / (1 - level)))
  const limit = decisions.find((d) => d.kind === 'time')?.threshold ?? 10
  const measured = stats.configurations.map((c) => c.gpuCount)
  const most = Math.max(1, ...measured, status.hostGpus ?? 0)
  const { open, judged } = answerOpen({ ...stats, decisions }, verdicts, status.final, typical, production)
  const base: Omit<CapacityAnswer, 'sentence'> = {
    status,
    statusText: statusTextOf(status),
    headline: headlineOf(status, seq !== null && seq !== undefined, open.length, judged),
    open,
    levelPct: level * 100,
    looks,
    ciText: ciText(level, looks),
    guarantee:
      looks > 1
        ? `intervals at ${(level * 100).toFixed(2)}%: a decided verdict is wrong with a chance of at most ${DECISION.alpha * 100}%, however many of the design's ${looks} looks it took (each look spends ${DECISION.alpha * 100}% / ${looks})`
        : `intervals at ${(level * 100).toFixed(0)}%, judged once: a decided verdict is wrong with a chance of at most ${(100 - level * 100).toFixed(0)}%`,
    limitH: limit,
    typical,
    production,
    gpus: stats.configurations.map((c) => gpuAnswer(c, stats, byId, decided)),
    comparisons: stats.comparisons.map((cmp) => {
      const s = cmp.at.find((x) => x.sequences === production)?.speedup
      const id = `capacity/${cmp.gpuCount}/speedup/${production}`
      // Before decisions: the verdict's own threshold (its band's low end, `1.6x-2x`).
      const stored = Number(/([\d.]+)x/.exec(byId.get(id)?.threshold ?? '')?.[1])
      const arch = (label: string) => {
        const c = stats.configurations.find((x) => x.label === label)
        return c ? (c.architecture ?? /, (v\d+(?:\.\d+)*)\b/.exec(c.label)?.[1] ?? null) : null
      }
      const [mine, theirs] = [arch(cmp.candidate), arch(cmp.baseline)]
      return {
        mixed:
          mine && theirs && mine !== theirs
            ? `${withArchitecture(cmp.candidate, mine)} against ${withArchitecture(cmp.baseline, theirs)}`
            : null,
        gpuCount: cmp.gpuCount,
        speedup: figureOf(s?.estimate, s?.ci),
        threshold: decisions.find((d) => d.id === id)?.threshold ?? (Number.isFinite(stored) ? stored : 1),
        state: decided.get(id)?.state ?? null,
      }
    }),
    notMeasured: [1, 2, 4, 8].filter((k) => !measured.includes(k)),
    hostGpus: most,
    decisions,
    design: seq
      ? {
          rule: seq.rule ?? 'width',
          stop: seq.stop,
          looks: seq.looks ?? 1,
          maxLooks: seq.maxLooks ?? 1,
          gpuMinutes: seq.gpuMinutes,
          budget: seq.budgetGpuMinutes,
        }
      : null,
    direct: (stats.direct ?? []).map((d) => ({
      label: d.label,
      records: d.records,
      runs: d.runs,
      measuredH: d.medianWallMs / HOUR_MS,
      projectedH: figureOf(d.projectedMs?.estimate, d.projectedMs?.ci, 1 / HOUR_MS),
      errorPct: d.errorPct,
      insideCi: d.insideCi,
    })),
    definitions: DEFINITIONS,
    heldOutChecks: checks,
    sizes: sizesText(stats),
    // A record from before issue 48 computed none: nothing is said of it.
    misfit: stats.configurations.flatMap((c) =>
      c.misfit === undefined ? [] : [{ label: c.label, text: misfitText(c.misfit) }],
    ),
    unchecked: held?.unchecked ?? [],
  }
  return { ...base, sentence: sentenceOf(base) }
}

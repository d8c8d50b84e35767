/**
 * Verdicts of the capacity record, beside (never instead of) the measured-size ones of the scaling and stage suites:
 * per configuration PERF-01 and PERF-02 (steady state and projected) at the measured size and the target sizes; per
 * k GPUs against 1 the speedup against its band, PERF-03, the break-even size and the asymptotic speedup. Every
 * projected verdict is judged on its whole CI, which covers run-to-run variation (size-model.ts).
 */
import type { Thresholds } from '../config/thresholds.ts'
import { judgeAtLeast, judgeAtMost, verdict } from '../engine/verdict.ts'
import type { SizeEstimate } from '../measure/index.ts'
import type { Verdict, VerdictValue } from '../results/schema/index.ts'
import type { ComparisonCapacity } from './compare.ts'
import type { ConfigCapacity } from './model.ts'

const HOUR_MS = 3_600_000
const count = (n: number) => Math.round(n).toLocaleString('en-US')
const ciText = (e: SizeEstimate, digits: number, by = 1) =>
  e.ci ? ` [${(e.ci.low * by).toFixed(digits)}, ${(e.ci.high * by).toFixed(digits)}]` : ' (no CI)'
const ciOf = (e: SizeEstimate, by = 1) => (e.ci ? { ...e.ci, low: e.ci.low * by, high: e.ci.high * by } : null)

/** Judged on the CI where there is one; without a CI the point estimate alone cannot pass or fail a projection. */
function judged(e: SizeEstimate, rule: (value: number, ci: { low: number; high: number } | null) => VerdictValue) {
  return e.ci ? rule(e.estimate, e.ci) : 'inconclusive'
}

/** Why the runs of these configurations cannot support a projection (capacity/support.ts); null when they can. */
function unsupported(configs: readonly ConfigCapacity[]): string | null {
  const bad = configs.filter((c) => !c.support.supported)
  if (bad.length === 0) return null
  return bad
    .map(
      (c) =>
        `${c.label}: ${c.support.problems.join('; ')}${c.support.nextRecords ? `; measure ${count(c.support.nextRecords)} records next` : ''}`,
    )
    .join(' | ')
}

/** A projected verdict the runs cannot support: inconclusive, saying why and what to measure next. */
function withSupport(v: Verdict, why: string | null): Verdict {
  if (why === null) return v
  return {
    ...v,
    verdict: 'inconclusive',
    detail: `${v.detail} | INCONCLUSIVE, the runs cannot support a projection: ${why}`,
  }
}

/**
 * A projection that is a lower bound (support.lowerBound: only a cost per file is missing, which adds) decides a time
 * target where its CI's low end is already above it: a FAIL, saying so; anything else stays inconclusive.
 */
function lowerBoundFail(v: Verdict, c: ConfigCapacity, wallMs: SizeEstimate, targetMs: number): Verdict | null {
  if (!c.support.lowerBound || !wallMs.ci || !(wallMs.ci.low > targetMs)) return null
  return {
    ...v,
    verdict: 'fail',
    detail: `${v.detail} | FAIL on a lower bound: the projection leaves out a cost per file, which only adds (${c.support.problems.join('; ')}), and its CI already lies above ${targetMs / HOUR_MS} h`,
  }
}

function perf01Verdicts(c: ConfigCapacity, t: Thresholds, measured: number): Verdict[] {
  const why = unsupported([c])
  // The first entry is the measured size; a target equal to it (a 45,000-record sample measured whole) is read again
  // as the target it is, so its question has a figure.
  return c.at.map(({ sequences, wallMs }, i) => {
    const isMeasured = i === 0 && sequences === measured
    const v = verdict({
      id: `capacity/${c.gpuCount}/perf01/${isMeasured ? 'measured' : sequences}`,
      title: `PERF-01 on ${c.label} at ${count(sequences)} sequences${isMeasured ? ' (measured size)' : ''}`,
      verdict: judged(wallMs, (v, ci) => judgeAtMost(v, ci, t.perf01.targetMs)),
      value: wallMs.estimate / HOUR_MS,
      unit: 'h',
      ci: ciOf(wallMs, 1 / HOUR_MS),
      threshold: `<= ${t.perf01.targetMs / HOUR_MS} h`,
      detail: `wall time ${(wallMs.estimate / HOUR_MS).toFixed(3)} h${ciText(wallMs, 3, 1 / HOUR_MS)} from fixed ${(c.wall.fixedMs.estimate / 1000).toFixed(1)} s + ${c.wall.msPerSequence.estimate.toFixed(3)} ms/sequence${c.ciProblem ? `; ${c.ciProblem}` : ''}${dominantText(c, sequences)}`,
    })
    if (isMeasured) return v
    return lowerBoundFail(v, c, wallMs, t.perf01.targetMs) ?? withSupport(v, why)
  })
}

/** Which part makes the CI at `sequences` as wide as it is. */
function dominantText(c: ConfigCapacity, sequences: number): string {
  const top = c.at.find((a) => a.sequences === sequences)?.dominant?.[0]
  return top ? `; CI mostly from ${top.part} (${top.sharePct.toFixed(0)}% of its variance)` : ''
}

function perf02Verdicts(c: ConfigCapacity, t: Thresholds, measured: number): Verdict[] {
  const min = t.perf02.minUtilPct
  return c.stages.flatMap((s) => {
    const startup = s.startupMs
      ? `start-up ${(s.startupMs.median / 1000).toFixed(1)} s before the GPU's work onset`
      : 'start-up unknown'
    const steady = s.steadyUtilPct
    const steadyVerdict = verdict({
      id: `capacity/${c.gpuCount}/perf02/${s.stage}/steady`,
      title: `PERF-02 steady state, ${s.stage}, ${c.label}`,
      verdict: steady ? judgeAtLeast(steady.median, steady.ci, min) : 'inconclusive',
      value: steady?.median ?? null,
      unit: '%',
      ci: steady?.ci ? { low: steady.ci.low, high: steady.ci.high, level: steady.ci.level } : null,
      threshold: `>= ${min}%`,
      detail: `utilization from each GPU's first batch (else the sample from which it stays busy) to its work's end, median of ${steady?.n ?? 0} runs at the largest size; ${startup}`,
      stage: s.stage,
    })
    const why = unsupported([c])
    const projected = s.utilAt.map(({ sequences, utilPct, disagreement }) =>
      withSupport(
        verdict({
          id: `capacity/${c.gpuCount}/perf02/${s.stage}/${sequences === measured ? 'measured' : sequences}`,
          title: `PERF-02 ${s.stage}, ${c.label}, at ${count(sequences)} sequences`,
          verdict: utilPct ? judged(utilPct, (v, ci) => judgeAtLeast(v, ci, min)) : 'inconclusive',
          value: utilPct?.estimate ?? null,
          unit: '%',
          ci: utilPct ? ciOf(utilPct) : null,
          threshold: `>= ${min}%`,
          detail: `the busy share at the largest size, tending to the marginal busy share across sizes (d busy / d stage), from the size model (stage fixed ${(s.fixedMs.estimate / 1000).toFixed(1)} s, then ${s.msPerSequence.estimate.toFixed(3)} ms/sequence); tends to ${s.asymptoticUtilPct?.estimate.toFixed(1) ?? '?'}% as the input grows; ${startup}${disagreement ? `; ${disagreement}` : ''}`,
          stage: s.stage,
        }),
        sequences === measured ? null : why,
      ),
    )
    return [steadyVerdict, ...projected]
  })
}

function breakEvenVerdict(cmp: ComparisonCapacity, t: Thresholds): Verdict {
  const be = cmp.breakEvenSequences
  const typical = t.perf01.typicalSequences
  const production = t.perf01.productionSequences
  const high = be.ci?.high ?? be.estimate
  const low = be.ci?.low ?? be.estimate
  const text = (n: number) => (Number.isFinite(n) ? `${count(n)} sequences` : 'never')
  let v: VerdictValue
  let why: string
  if (!be.ci) [v, why] = ['inconclusive', 'no CI (one run at a size)']
  else if (high <= typical) [v, why] = ['pass', `pays off below the typical sample (${count(typical)})`]
  else if (low > production) [v, why] = ['fail', `does not pay off even at the production size (${count(production)})`]
  else if (low > typical && high <= production)
    [v, why] = ['flag', `pays off only for samples above ${text(be.estimate)}`]
  else [v, why] = ['inconclusive', 'the CI spans the typical or the production size']
  return verdict({
    id: `capacity/${cmp.gpuCount}/break-even`,
    title: `break-even size, ${cmp.candidate} vs ${cmp.baseline}`,
    verdict: v,
    value: Number.isFinite(be.estimate) ? be.estimate : null,
    unit: 'sequences',
    ci: be.ci && Number.isFinite(be.ci.high) ? be.ci : null,
    threshold: `<= ${count(typical)} (pass), <= ${count(production)} (flag)`,
    detail: `${cmp.candidate} beats ${cmp.baseline} from ${text(be.estimate)} on (CI ${text(low)} to ${text(high)}): ${why}`,
  })
}

function speedupVerdicts(cmp: ComparisonCapacity, t: Thresholds, measured: number): Verdict[] {
  const band = t.scalingBands[String(cmp.gpuCount)]
  const low = band?.[0] ?? 1
  const where = (n: number) => (n === measured ? 'measured' : String(n))
  const rows = cmp.at.map(({ sequences, speedup, efficiency }) =>
    verdict({
      id: `capacity/${cmp.gpuCount}/speedup/${where(sequences)}`,
      title: `speedup, ${cmp.candidate} vs ${cmp.baseline}, at ${count(sequences)} sequences`,
      verdict: judged(speedup, (v, ci) => judgeAtLeast(v, ci, low)),
      value: speedup.estimate,
      unit: 'x',
      ci: ciOf(speedup),
      threshold: band ? `${band[0]}x-${band[1]}x` : `>= ${low}x`,
      detail: `efficiency ${(efficiency.estimate * 100).toFixed(1)}%${ciText(efficiency, 1, 100)}`,
    }),
  )
  const asym = cmp.asymptoticSpeedup
  rows.push(
    verdict({
      id: `capacity/${cmp.gpuCount}/speedup/asymptotic`,
      title: `asymptotic speedup (input size to infinity), ${cmp.candidate} vs ${cmp.baseline}`,
      verdict: judged(asym, (v, ci) => judgeAtLeast(v, ci, low)),
      value: asym.estimate,
      unit: 'x',
      ci: ciOf(asym),
      threshold: band ? `${band[0]}x-${band[1]}x` : `>= ${low}x`,
      detail: 'ratio of the per-sequence parts of the wall time: what more GPUs give once start-up no longer counts',
    }),
  )
  for (const { sequences, speedup } of cmp.perf03)
    rows.push(
      verdict({
        id: `capacity/${cmp.gpuCount}/perf03/${where(sequences)}`,
        title: `PERF-03 ${t.perf03.stage} on ${cmp.gpuCount} GPUs at ${count(sequences)} sequences`,
        verdict: judged(speedup, (v, ci) => judgeAtLeast(v, ci, t.perf03.minSpeedup)),
        value: speedup.estimate,
        unit: 'x',
        ci: ciOf(speedup),
        threshold: `>= ${t.perf03.minSpeedup}x`,
        detail: 'stage time ratio from the two size models',
        stage: t.perf03.stage,
      }),
    )
  return rows
}

/**
 * Every capacity verdict. `measured`: the largest size every configuration measured (sequences), named `measured` in
 * the comparisons' verdict ids; a configuration's own verdicts name its own largest measured size so.
 */
export function capacityVerdicts(
  configs: readonly ConfigCapacity[],
  comparisons: readonly ComparisonCapacity[],
  t: Thresholds,
  measured: number,
): Verdict[] {
  const pair = (cmp: ComparisonCapacity) =>
    unsupported(configs.filter((c) => c.label === cmp.baseline || c.label === cmp.candidate))
  return [
    // Each configuration's own largest measured size: the sequential design may have measured one larger than the rest.
    ...configs.flatMap((c) => {
      const own = c.sizes.at(-1)?.sequences ?? measured
      return [...perf01Verdicts(c, t, own), ...perf02Verdicts(c, t, own)]
    }),
    ...comparisons.flatMap((cmp) => {
      const why = pair(cmp)
      const projectedOnly = (v: Verdict) => withSupport(v, v.id.endsWith('/measured') ? null : why)
      return [...speedupVerdicts(cmp, t, measured), breakEvenVerdict(cmp, t)].map(projectedOnly)
    }),
  ]
}

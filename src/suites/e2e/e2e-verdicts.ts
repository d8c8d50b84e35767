/** Verdicts of the e2e suite: PERF-01 projections, throughput and utilization floors, stability, optimization matrix. */
import type { Thresholds } from '../../config/thresholds.ts'
import { type Analysis, judgeAtLeast, verdict } from '../../engine/verdict.ts'
import type { Verdict } from '../../results/schema/index.ts'
import { type E2eInput, type E2eStats, e2eStats } from './e2e.ts'

const hours = (ms: number) => `${(ms / 3.6e6).toFixed(2)} h`
/** `: <failure>` to end a detail with, or nothing. */
const because = (failure: string | null) => (failure ? `: ${failure}` : '')

function projectionVerdicts(stats: E2eStats): Verdict[] {
  const p = stats.typical.projection
  // No completed run: nothing was measured to project (`error`); a completed run that cannot be projected is data
  // that cannot decide (`inconclusive`).
  const failed = stats.typical.measuredRuns === 0
  if (p.state !== 'projected')
    return [
      verdict({
        id: 'perf01',
        title: 'PERF-01 projected time',
        verdict: failed ? 'error' : 'inconclusive',
        detail: `not projected: ${p.reason}${failed ? because(stats.typical.failure) : ''}`,
      }),
    ]
  return p.projection.projections.map((x) =>
    verdict({
      id: `perf01/${x.sequences}`,
      title: `PERF-01 projected time for ${x.sequences.toLocaleString('en-US')} sequences`,
      verdict: x.verdict,
      value: x.projectedMs.estimate / 3.6e6,
      unit: 'h',
      ci: { low: x.projectedMs.ci.low / 3.6e6, high: x.projectedMs.ci.high / 3.6e6, level: x.projectedMs.ci.level },
      threshold: `<= ${hours(x.limitMs)} (${hours(x.targetMs)} + ${x.tolerance * 100}%)`,
      detail: `${x.reason}; from ${p.projection.fromRun} (${p.projection.inputSequences} sequences), ESM-2 ${p.projection.esm2.ratePerS.toFixed(1)} seq/s steady`,
    }),
  )
}

function floorVerdicts(stats: E2eStats, t: Thresholds): Verdict[] {
  const out: Verdict[] = []
  const failed = stats.typical.measuredRuns === 0
  const noRun = `no completed run${because(stats.typical.failure)}`
  const rate = stats.typical.sequencesPerHour
  const rateBase = {
    id: 'e2e/throughput',
    title: 'end-to-end throughput',
    unit: 'seq/h',
    threshold: `>= ${t.perf01.minSequencesPerHour} seq/h`,
  }
  out.push(
    rate
      ? verdict({
          ...rateBase,
          verdict: judgeAtLeast(rate.median, rate.ci, t.perf01.minSequencesPerHour),
          value: rate.median,
          ci: rate.ci,
          detail: `median over ${rate.n} run(s)`,
        })
      : failed
        ? verdict({ ...rateBase, verdict: 'error', detail: noRun })
        : verdict({ ...rateBase, verdict: 'inconclusive', detail: 'no sequence count in the completed runs' }),
  )
  const util = stats.typical.utilPct
  const utilBase = {
    id: 'e2e/utilization',
    title: 'whole-run GPU utilization',
    unit: '%',
    threshold: `>= ${t.perf01.minUtilPct}%`,
  }
  out.push(
    util
      ? verdict({
          ...utilBase,
          verdict: judgeAtLeast(util.median, util.ci, t.perf01.minUtilPct),
          value: util.median,
          ci: util.ci,
          detail: `mean over requested GPUs, median over ${util.n} run(s)`,
        })
      : failed
        ? verdict({ ...utilBase, verdict: 'error', detail: noRun })
        : verdict({ ...utilBase, verdict: 'skipped', detail: 'no GPU monitor samples' }),
  )
  return out
}

function stabilityVerdicts(stats: E2eStats): Verdict[] {
  const l = stats.large
  const base = { title: 'large-sample stability' }
  if (!l) return [verdict({ ...base, id: 'e2e/large', verdict: 'skipped', detail: 'no large sample run' })]
  const ratio = l.esm2RatioToTypical
  const within = ratio !== null && Math.abs(ratio - 1) <= 0.2
  // A large run that failed (other than by OOM) measured neither throttling nor throughput: no verdict on either.
  const noneCompleted = l.completedRuns === 0
  const failedDetail = `no completed large run${because(l.failure)}`
  const wholeRun = l.ratioToTypical === null ? 'n/a' : `${l.ratioToTypical.toFixed(2)}x`
  return [
    verdict({
      ...base,
      id: 'e2e/large/oom',
      title: 'large sample: no OOM',
      verdict: l.oomRuns > 0 ? 'fail' : noneCompleted ? 'error' : 'pass',
      value: l.oomRuns,
      unit: 'runs',
      threshold: '0',
      detail: l.oomRuns === 0 && noneCompleted ? failedDetail : `${l.runs} run(s) on ${l.sequences ?? '?'} sequences`,
    }),
    verdict({
      ...base,
      id: 'e2e/large/throttling',
      title: 'large sample: no throttling',
      verdict: noneCompleted ? 'error' : l.throttledSamples === 0 ? 'pass' : 'fail',
      value: l.throttledSamples,
      unit: 'samples',
      threshold: '0',
      detail: noneCompleted ? failedDetail : 'HW/SW slowdown, thermal or power-brake samples',
    }),
    verdict({
      ...base,
      id: 'e2e/large/throughput',
      title: 'large sample: ESM-2 throughput within 20% of the typical run',
      verdict: noneCompleted ? 'error' : ratio === null ? 'inconclusive' : within ? 'pass' : 'fail',
      value: ratio,
      unit: 'x typical',
      threshold: '0.8x-1.2x',
      detail: noneCompleted
        ? failedDetail
        : l.esm2TokensPerS
          ? `large ${Math.round(l.esm2TokensPerS.median)} ESM-2 tok/s; whole-run seq/s ${wholeRun} typical (start-up amortized and length mix, not judged)`
          : 'no completed large run with an ESM-2 inference rate',
    }),
  ]
}

function matrixVerdicts(stats: E2eStats): Verdict[] {
  const m = stats.matrix
  if (!m)
    return [verdict({ id: 'e2e/matrix', title: 'optimization impact', verdict: 'skipped', detail: 'matrix not run' })]
  const against = m.baseline ? ` vs ${m.baseline}` : ''
  const titled = (label: string) => ({ id: `e2e/matrix/${label}`, title: `optimization impact: ${label}${against}` })
  // An arm no path reads, or whose runs do not show their switches, has no verdict on its impact: one line says why.
  const notRun = m.notRun.map((n) =>
    verdict({ ...titled(n.label), verdict: 'skipped', detail: `not run: ${n.reason}` }),
  )
  const baseline =
    m.baseline && m.baselineRefused
      ? [verdict({ ...titled(m.baseline), verdict: 'skipped', detail: `refused: ${m.baselineRefused}` })]
      : []
  const arms = m.arms.map((arm) => {
    const base = { ...titled(arm.label), unit: 'x', threshold: '>= 1x (not slower)' }
    if (arm.refused) return verdict({ ...base, verdict: 'skipped', detail: `refused: ${arm.refused}` })
    const s = arm.speedup
    if (!s) return verdict({ ...base, verdict: 'error', detail: `no completed run on one side${because(arm.failure)}` })
    return verdict({
      ...base,
      verdict: s.verdict === 'flag' ? 'pass' : s.verdict,
      value: s.speedup.estimate,
      ci: s.speedup.ci,
      detail: s.reason,
    })
  })
  return [...baseline, ...arms, ...notRun]
}

/** Stats and verdicts of the e2e suite. */
export function analyzeE2e(input: E2eInput, t: Thresholds): Analysis<E2eStats> {
  const stats = e2eStats(input, t)
  return {
    stats,
    verdicts: [
      ...projectionVerdicts(stats),
      ...floorVerdicts(stats, t),
      ...stabilityVerdicts(stats),
      ...matrixVerdicts(stats),
    ],
  }
}

/**
 * The study's judged figures: each setting's outputs against the default's (consensus labels, outputs.ts), and the
 * winner against the default at 6 M on each GPU count. Nothing compared on one side is `error`, never a pass.
 */
import type { Figure } from '../capacity/answer.ts'
import { verdict } from '../engine/verdict.ts'
import type { Verdict } from '../results/schema/index.ts'
import type { StudyRow, StudyStats } from './stats.ts'

export function studyVerdicts(stats: StudyStats): Verdict[] {
  const rows = stats.rows.filter((r) => !r.isDefault)
  const outputs = rows.map((r) =>
    verdict({
      id: `study/outputs/${r.label}`,
      title: `outputs of ${r.label} the default's`,
      verdict: r.outputs === null ? 'error' : r.outputs.equal === null ? 'error' : r.outputs.equal ? 'pass' : 'fail',
      threshold: r.outputs?.consensus
        ? `the same IDs, consensus labels agreeing at least ${r.outputs.consensus.minAgreement} (thresholds study.minConsensusAgreement)`
        : 'the same IDs, consensus labels agreeing at least the threshold (thresholds study.minConsensusAgreement)',
      // The label agreement in percent of the IDs compared.
      ...(r.outputs?.consensus?.labelAgreement != null && {
        value: r.outputs.consensus.labelAgreement * 100,
        unit: '%',
      }),
      detail: r.outputs
        ? `at ${r.outputs.records.toLocaleString('en-US')} records: ${r.outputs.detail}`
        : 'not compared: no round measured it',
    }),
  )
  return [...outputs, ...bestAgainstDefault(stats)]
}

/** The winner's 6 M hours against the default's, per GPU count: faster, slower, or not told apart. */
function bestAgainstDefault(stats: StudyStats): Verdict[] {
  const reference = stats.rows.find((r) => r.isDefault)
  const best = stats.rows.find((r) => !r.isDefault && r.label === stats.best)
  const id = 'study/best'
  if (!best) {
    const why = stats.rows
      .filter((r) => r.dropped)
      .map((r) => `${r.label}: ${r.dropped!.why}`)
      .join('; ')
    return [
      verdict({
        id,
        title: 'the best setting against the default',
        verdict: 'error',
        detail: `no setting came through the screen${why ? ` (${why})` : ''}`,
      }),
    ]
  }
  return (reference?.capacity?.perGpuCount ?? []).map((d) => {
    const mine = best.capacity?.perGpuCount.find((g) => g.gpuCount === d.gpuCount)
    // A figure its own capacity answer refuses to project from judges nothing here either (issue 47).
    const refused = mine?.unsupported
      ? `${best.label}'s runs cannot support a projection (${mine.unsupported})`
      : d.unsupported
        ? `the default's runs cannot support a projection (${d.unsupported})`
        : null
    return verdict({
      id: `${id}/${d.gpuCount}`,
      title: `${best.label} against the default at ${stats.production.toLocaleString('en-US')} sequences, ${d.gpuCount} GPU(s)`,
      ...(refused
        ? { verdict: 'error' as const, detail: `not compared: ${refused}` }
        : judgeFaster(best, mine?.productionH ?? null, d.productionH)),
      unit: 'h',
      gpu: null,
    })
  })
}

function judgeFaster(best: StudyRow, mine: Figure | null, reference: Figure | null) {
  const h = (f: Figure) => `${f.value.toFixed(1)} h [${f.low?.toFixed(1)}, ${f.high?.toFixed(1)}]`
  if (
    !mine ||
    !reference ||
    mine.low === null ||
    mine.high === null ||
    reference.low === null ||
    reference.high === null
  )
    return {
      verdict: 'error' as const,
      detail: `not compared: ${!mine ? best.label : 'the default'} has no interval at this size`,
    }
  const detail = `${best.label} ${h(mine)} against the default's ${h(reference)}`
  const state = mine.high < reference.low ? 'pass' : mine.low > reference.high ? 'fail' : 'inconclusive'
  return {
    verdict: state as 'pass' | 'fail' | 'inconclusive',
    value: mine.value,
    threshold: "interval below the default's",
    detail,
  }
}

/**
 * Whether a setting gives the default's results, as VirNucPro judges its own v2.0 path (FP16 and packing move scores
 * past 1e-3 and leave the labels): its consensus file (`prediction_results_highestscore.csv`, Is_Virus per Modified_ID)
 * against the default's on the same input, the same IDs with the labels agreeing at least thresholds
 * `study.minConsensusAgreement` (99%), the score differences reported beside it (measure/consensus.ts). The
 * equivalence suite keeps its strict rule. A setting that is faster at something else does not count; one with
 * nothing to compare is no verdict, never equal.
 */
import type { Thresholds } from '../config/thresholds.ts'
import type { MeasuredConfiguration } from '../engine/measure-configuration.ts'
import { type ConsensusRow, compareConsensus, judgeConsensus } from '../measure/index.ts'
import { readHighestScores } from '../pipeline/output-readers.ts'
import { runWithOutputs } from '../suites/equivalence/equivalence.ts'
import type { StudyConsensus, StudyOutputs } from './stats.ts'

/** The file the study compares, named in every detail. */
export const CONSENSUS_FILE = 'prediction_results_highestscore.csv'

async function consensusOf(m: MeasuredConfiguration): Promise<ConsensusRow[] | null> {
  const run = runWithOutputs(m)
  if (!run) return null
  const rows: ConsensusRow[] = []
  for await (const row of readHighestScores(run.outputs.highestScores.path)) rows.push(row)
  return rows
}

/**
 * The setting's outputs against the default's (each one's first completed run with outputs).
 * @throws OutputFormatError when a consensus file is malformed (the runner checked it once already).
 */
export async function compareOutputs(
  reference: MeasuredConfiguration,
  candidate: MeasuredConfiguration,
  records: number,
  t: Thresholds,
): Promise<StudyOutputs> {
  const [ref, cand] = await Promise.all([consensusOf(reference), consensusOf(candidate)])
  if (!ref || !cand) {
    const side = [!ref && `the default (${reference.config.label})`, !cand && candidate.config.label]
    return {
      equal: null,
      records,
      detail: `no completed run with outputs: ${side.filter(Boolean).join(', ')}`,
      consensus: null,
    }
  }
  const min = t.study.minConsensusAgreement
  const c = compareConsensus(ref, cand)
  const consensus: StudyConsensus = { file: CONSENSUS_FILE, minAgreement: min, ...c }
  const judged = judgeConsensus(c, min)
  if (judged.state === 'empty')
    return { equal: null, records, detail: `nothing to compare: both ${CONSENSUS_FILE} files are empty`, consensus }
  return { equal: judged.state === 'same', records, detail: consensusDetail(consensus), consensus }
}

/**
 * The comparison in words: `labels agree 97.2%, 1.8 points under 99% (243 of 250 IDs in
 * prediction_results_highestscore.csv); scores max |diff| 0.031, mean 0.004, 12.0% of 500 over 0.001`, IDs that
 * differ counted first.
 */
export function consensusDetail(c: StudyConsensus): string {
  const ids = `${count(c.agreeing)} of ${count(c.common)} IDs in ${c.file}`
  const agreement =
    c.labelAgreement === null
      ? 'no ID in both'
      : `labels agree ${percent(c.labelAgreement, c.minAgreement)}${
          c.labelAgreement < c.minAgreement
            ? `, ${points(c.minAgreement - c.labelAgreement)} under ${barText(c.minAgreement)}`
            : ''
        } (${ids})`
  const s = c.scores
  const scores =
    s.count === 0
      ? 'no scores compared'
      : `scores max |diff| ${small(s.maxAbs)}, mean ${small(s.meanAbs)}, ${percent(s.overShare)} of ${count(s.count)} over ${s.step}`
  const sameIds = c.missing === 0 && c.extra === 0 && c.duplicates === 0
  const idsDiffer = sameIds
    ? ''
    : `IDs differ: ${count(c.missing)} of the default's missing, ${count(c.extra)} extra, ${count(c.duplicates)} given twice; `
  return `${idsDiffer}${agreement}; ${scores}`
}

const count = (n: number) => n.toLocaleString('en-US')

/** A share in percent with the digits that keep it apart from `bar` (98.96% under a 99% bar is not "99.0%"). */
export function percent(share: number, bar?: number): string {
  for (const digits of [1, 2, 3, 4]) {
    const text = (share * 100).toFixed(digits)
    if (bar === undefined || share === bar || Number(text) !== Number((bar * 100).toFixed(digits))) return `${text}%`
  }
  return `${(share * 100).toPrecision(8)}%`
}

/** The threshold as written: 0.99 -> `99%`. */
const barText = (share: number) => `${Number((share * 100).toPrecision(6))}%`

/** Percentage points, with the digits that keep a shortfall from reading 0.0. */
function points(shortfall: number): string {
  const digits = [1, 2, 3, 4].find((d) => Number((shortfall * 100).toFixed(d)) > 0) ?? 4
  return `${(shortfall * 100).toFixed(digits)} points`
}

const small = (x: number) => (x === 0 ? '0' : x.toPrecision(2))

/**
 * The glue every ratio bench uses: measure the pairs, hand both arms' wall and CPU times to Vitest as benchmark results
 * (so the absolute figures land in reports/summary.json, bench.bmf.json and github-benchmark.json like any bench's,
 * and in the run's stored invocation when the run wrote records), judge the ratio, and print one line with both.
 */
import { expect, type TestContext } from 'vitest'
import { benchFromSamples } from './bench-samples.ts'
import { type Arm, measurePairs, type PairedSamples, type PairOptions } from './paired.ts'
import { plantedLabel } from './planted-slowdown.ts'
import { formatJudgement, judgeRatio, type RatioJudgement } from './ratio.ts'

export interface RatioBenchOptions extends PairOptions {
  /** The subject's benchmark name (unchanged from before the ratio, so stored baselines still match). */
  subjectName: string
  /** What the calibration does, e.g. 'plain buffered write of the same bytes'. */
  calibrationName: string
  /** The largest subject / calibration ratio that passes. */
  limit: number
}

export interface RatioBenchResult {
  samples: PairedSamples
  judgedOn: 'cpu' | 'wall'
  /** The judged ratio (of `judgedOn` costs). */
  judgement: RatioJudgement
  /** The other cost's ratio, printed beside it (for reading only); null when an arm's cost read 0 (too short). */
  otherRatio: RatioJudgement | null
  /** Mean wall time of each arm over the kept pairs, ms. */
  subjectMeanMs: number
  calibrationMeanMs: number
}

/**
 * Stores both arms' samples as Vitest benchmarks, wall time and CPU time each: the subject under its own name, the
 * calibration beside it. Returns the arms' mean wall times.
 */
export async function recordArms(
  bench: TestContext['bench'],
  names: { subject: string; calibration: string },
  samples: PairedSamples,
): Promise<{ subjectMeanMs: number; calibrationMeanMs: number }> {
  const subjectName = `${names.subject}${plantedLabel()}`
  const calibrationName = `calibration: ${names.calibration}`
  const subject = await benchFromSamples(bench, subjectName, samples.subjectMs)
  const calibration = await benchFromSamples(bench, calibrationName, samples.calibrationMs)
  await benchFromSamples(bench, `${subjectName} (CPU time)`, samples.subjectCpuMs)
  await benchFromSamples(bench, `${calibrationName} (CPU time)`, samples.calibrationCpuMs)
  return { subjectMeanMs: subject.latency.mean, calibrationMeanMs: calibration.latency.mean }
}

/** Measures, records and judges one subject against its calibration. */
export async function ratioBench(
  bench: TestContext['bench'],
  subject: Arm,
  calibration: Arm,
  options: RatioBenchOptions,
): Promise<RatioBenchResult> {
  const samples = await measurePairs(subject, calibration, options)
  const means = await recordArms(bench, { subject: options.subjectName, calibration: options.calibrationName }, samples)
  const wall = [samples.subjectMs, samples.calibrationMs] as const
  const cpu = [samples.subjectCpuMs, samples.calibrationCpuMs] as const
  const [judged, other] = options.judgeOn === 'cpu' ? [cpu, wall] : [wall, cpu]
  // A CPU time of a few microseconds can read 0 (the clock's grain): then there is no other ratio to print.
  const otherRatio = [...other[0], ...other[1]].every((cost) => cost > 0)
    ? judgeRatio(other[0], other[1], options.limit)
    : null
  return { samples, judgedOn: options.judgeOn, judgement: judgeRatio(...judged, options.limit), otherRatio, ...means }
}

/**
 * `label: cpu ratio ... : pass (wall ratio ...); figures` as an annotation (printed as an `[annotation]` line and kept
 * by Vitest).
 */
export async function annotateRatio(
  annotate: TestContext['annotate'],
  label: string,
  result: Pick<RatioBenchResult, 'judgedOn' | 'judgement' | 'otherRatio'>,
  figures: string,
): Promise<void> {
  const other = result.judgedOn === 'cpu' ? 'wall' : 'cpu'
  const o = result.otherRatio
  const otherRatio = o
    ? `${other} ratio ${o.ratio.toFixed(2)} (pairs ${o.lowestRatio.toFixed(2)}-${o.highestRatio.toFixed(2)})`
    : `no ${other} ratio (a cost read 0)`
  await annotate(
    `${label}${plantedLabel()}: ${result.judgedOn} ${formatJudgement(result.judgement)}; ${otherRatio}; ${figures}`,
  )
}

/** The assertion: the median ratio within its limit, the message carrying the whole judgement. */
export function expectWithinLimit(judgement: RatioJudgement, label: string): void {
  expect(judgement.ratio, `${label}: ${formatJudgement(judgement)}`).toBeLessThanOrEqual(judgement.limit)
}

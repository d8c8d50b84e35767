/**
 * The glue every ratio bench uses: build the subject from this checkout (and, under `--against REV`, from REV's
 * checkout too), measure the pairs, hand both arms' wall and CPU times to Vitest as benchmark results (so the absolute
 * figures land in reports/summary.json, bench.bmf.json and github-benchmark.json like any bench's), judge the run
 * against the same machine (judgement.ts), and print one line with the figures and the verdict.
 */
import type { TestContext } from 'vitest'
import { type OtherCheckout, otherCheckout, THIS_CHECKOUT } from './against/checkout.ts'
import { benchFromSamples } from './bench-samples.ts'
import { judgeRun, type RunJudgement } from './judgement.ts'
import { type Arm, measurePairs, type PairedSamples, type PairOptions } from './paired.ts'
import { plantedLabel } from './planted-slowdown.ts'
import { formatRatios, type RatioSummary, summarizeRatios } from './ratio.ts'

/** The subject's arm, built from a checkout's root: its code under test imported from there (against/checkout.ts). */
export type SubjectArm = (checkoutRoot: string) => Arm | Promise<Arm>

export interface RatioBenchOptions extends PairOptions {
  /** The subject's benchmark name (unchanged from before, so stored results still match); also its baseline's name. */
  subjectName: string
  /** What the calibration does, e.g. 'plain buffered write of the same bytes'. */
  calibrationName: string
}

export interface RatioBenchResult {
  samples: PairedSamples
  judgedOn: 'cpu' | 'wall'
  /** The judged costs' ratio, subject / calibration (under `--against`, this checkout / the other revision). */
  ratio: RatioSummary
  /** The other cost's ratio, printed beside it (for reading only); null when an arm's cost read 0 (too short). */
  otherRatio: RatioSummary | null
  /** Mean wall time of each arm over the kept pairs, ms. */
  subjectMeanMs: number
  calibrationMeanMs: number
  /** The other revision whose subject was the second arm, or null when it was the calibration. */
  against: OtherCheckout | null
  judgement: RunJudgement
}

/**
 * Stores both arms' samples as Vitest benchmarks, wall time and CPU time each: the subject under its own name, the
 * second arm beside it. Returns the arms' mean wall times.
 */
export async function recordArms(
  bench: TestContext['bench'],
  names: { subject: string; calibration: string },
  samples: PairedSamples,
): Promise<{ subjectMeanMs: number; calibrationMeanMs: number }> {
  const subjectName = `${names.subject}${plantedLabel()}`
  const subject = await benchFromSamples(bench, subjectName, samples.subjectMs)
  const calibration = await benchFromSamples(bench, names.calibration, samples.calibrationMs)
  await benchFromSamples(bench, `${subjectName} (CPU time)`, samples.subjectCpuMs)
  await benchFromSamples(bench, `${names.calibration} (CPU time)`, samples.calibrationCpuMs)
  return { subjectMeanMs: subject.latency.mean, calibrationMeanMs: calibration.latency.mean }
}

/**
 * Measures, records and judges one subject: against its calibration, or under `--against REV` against REV's subject.
 * @throws as the arms do, or as judgement.ts does for an unusable baseline
 */
export async function ratioBench(
  bench: TestContext['bench'],
  subject: SubjectArm,
  calibration: Arm,
  options: RatioBenchOptions,
): Promise<RatioBenchResult> {
  const other = otherCheckout()
  const [here, second] = await Promise.all([subject(THIS_CHECKOUT), other ? subject(other.root) : calibration])
  const samples = await measurePairs(here, second, options)
  const means = await recordArms(
    bench,
    {
      subject: options.subjectName,
      calibration: other
        ? `${options.subjectName} (against ${other.commit.slice(0, 10)})`
        : `calibration: ${options.calibrationName}`,
    },
    samples,
  )
  const wall = [samples.subjectMs, samples.calibrationMs] as const
  const cpu = [samples.subjectCpuMs, samples.calibrationCpuMs] as const
  const [judged, shown] = options.judgeOn === 'cpu' ? [cpu, wall] : [wall, cpu]
  // A CPU time of a few microseconds can read 0 (the clock's grain): then there is no other ratio to print.
  const otherRatio = [...shown[0], ...shown[1]].every((cost) => cost > 0) ? summarizeRatios(...shown) : null
  const judgement = await judgeRun(options.subjectName, {
    judgeOn: options.judgeOn,
    subjectCosts: judged[0],
    calibrationCosts: judged[1],
  })
  return {
    samples,
    judgedOn: options.judgeOn,
    ratio: summarizeRatios(...judged),
    otherRatio,
    ...means,
    against: other,
    judgement,
  }
}

/**
 * `label: cpu ratio ... (wall ratio ...); figures; verdict` as an annotation (printed as an `[annotation]` line and
 * kept by Vitest).
 */
export async function annotateRatio(
  annotate: TestContext['annotate'],
  label: string,
  result: Pick<RatioBenchResult, 'judgedOn' | 'ratio' | 'otherRatio' | 'against' | 'judgement'>,
  figures: string,
): Promise<void> {
  const other = result.judgedOn === 'cpu' ? 'wall' : 'cpu'
  const o = result.otherRatio
  const otherRatio = o
    ? `${other} ratio ${o.ratio.toFixed(2)} (pairs ${o.lowestRatio.toFixed(2)}-${o.highestRatio.toFixed(2)})`
    : `no ${other} ratio (a cost read 0)`
  const against = result.against
    ? ` against ${result.against.commit.slice(0, 10)} (the figures' second arm is its subject)`
    : ''
  await annotate(
    `${label}${plantedLabel()}: ${result.judgedOn} ${formatRatios(result.ratio)}${against}; ${otherRatio}; ${figures}; ${result.judgement.message}`,
  )
}

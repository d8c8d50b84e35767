/**
 * Memory at production size (issue 36): will the host's RAM and each GPU's memory hold the run at the target sizes?
 * The suite projects time to 45 K and 6 M sequences; by VirNucPro's code its v2 workers (2+ GPUs) keep every embedding
 * in host memory until the end, so memory may decide first. Per configuration the peaks are fitted as fixed +
 * per-sequence (memory-fit.ts) and judged on their CIs: PASS where the CI's high end fits, FAIL where its low end
 * already exceeds, else inconclusive; without a CI, inconclusive (a point alone neither passes nor fails a projection,
 * as for the time verdicts). A PASS from a line the runs reject as a line, bending upwards, is inconclusive: a line
 * projects such a peak low.
 */
import { judgeAtMost, verdict } from '../engine/verdict.ts'
import type { SizeEstimate } from '../measure/index.ts'
import type { Verdict, VerdictValue } from '../results/schema/index.ts'
import { type ConfigMemory, fitConfigMemory, HOST_PROCESS, HOST_TREE, type MemorySeries } from './memory-fit.ts'
import type { CapacityRun } from './runs.ts'

export type { ConfigMemory, MemorySeries } from './memory-fit.ts'

/** What the memory is set against: the host's RAM and each GPU's memory, bytes. */
export interface MemoryHost {
  memBytes: number | null
  gpuMemTotalBytes: Readonly<Record<number, number>>
}

export interface MemoryCapacity {
  figures: ConfigMemory[]
  verdicts: Verdict[]
}

/** Below this p-value a line's lack of fit is taken as real (line-fit.ts). */
export const LINE_REJECTED_P = 0.05
const GIB = 2 ** 30
const count = (n: number) => Math.round(n).toLocaleString('en-US')
const gib = (bytes: number) => (bytes / GIB).toFixed(1)
const ciGib = (e: SizeEstimate) => (e.ci ? { ...e.ci, low: e.ci.low / GIB, high: e.ci.high / GIB } : null)

/**
 * The host the runs ran on, as they recorded it: the smallest RAM any run saw (os.totalmem() at run time) and each
 * GPU's memory total; `given` overrides either.
 */
export function memoryHostOf(runs: readonly CapacityRun[], given: Partial<MemoryHost> = {}): MemoryHost {
  const mems = runs.map((r) => r.memory?.hostMemTotalBytes).filter((m): m is number => typeof m === 'number')
  const gpus: Record<number, number> = {}
  for (const g of runs.flatMap((r) => r.memory?.gpus ?? []))
    if (g.memTotalBytes !== null) gpus[g.gpu] = Math.min(gpus[g.gpu] ?? Number.POSITIVE_INFINITY, g.memTotalBytes)
  return {
    memBytes: given.memBytes ?? (mems.length > 0 ? Math.min(...mems) : null),
    gpuMemTotalBytes: given.gpuMemTotalBytes ?? gpus,
  }
}

/** Sizes a projection beyond the measured ones needs: two always make a line, so they cannot test one. */
export const MEMORY_SIZES_TO_PROJECT = 3
/**
 * The widest interval a projected peak is a figure with: its high end at most this many times its low end (issue 48:
 * VirNucPro on 4 x H200 read 1 GPU 154 GiB [12, 1,637] and 4 GPUs 1,496 GiB [39, 11,034] at 6 M from three sizes, the
 * per-sequence growth lost in the peaks' run-to-run spread: numbers a planner cannot act on).
 */
export const MEMORY_MAX_SPAN = 3

/**
 * Why the runs cannot support a peak's projection to `sequences`, or null where they can (issue 47: host memory at 6 M
 * read 5,944 GiB [3,090, 8,808], a decided FAIL, from a tiny model's batch growth over two sizes; another read 49,427.7
 * GiB [0.0, 48,898.2], its estimate outside its own interval). Within the measured sizes a peak was seen, and is judged.
 */
function unsupported(s: MemorySeries, sequences: number, measured: readonly number[]): string | null {
  const bytes = s.at.find((a) => a.sequences === sequences)!.bytes
  if (bytes.ci && (bytes.estimate < bytes.ci.low || bytes.estimate > bytes.ci.high))
    return 'its estimate lies outside its own interval (the fit does not hold)'
  const largest = Math.max(...measured)
  if (sequences <= largest) return null
  const sizes = new Set(measured).size
  if (sizes < MEMORY_SIZES_TO_PROJECT)
    return `not supported by the ${sizes} size(s) measured: a line through them cannot be tested, and a batch's growth reads as the input's; ${MEMORY_SIZES_TO_PROJECT} or more sizes up to the largest affordable would test it`
  if (s.lineFit && s.lineFit.pValue < LINE_REJECTED_P)
    return `not supported: the runs are not a line (lack of fit p = ${s.lineFit.pValue.toPrecision(2)}), so no line carries them ${Math.round(sequences / largest).toLocaleString('en-US')}x past the largest size`
  // An interval held at zero (the line's misfit larger than the projection) spans without bound: never a figure.
  if (bytes.ci && bytes.ci.high > MEMORY_MAX_SPAN * Math.max(bytes.ci.low, 1))
    return `not supported by the sizes measured: its interval [${gib(bytes.ci.low)}, ${gib(bytes.ci.high)}] GiB spans ${(bytes.ci.high / Math.max(bytes.ci.low, 1)).toFixed(0)}x (the per-sequence growth is lost in the peaks' run-to-run spread); what would support it: sizes reaching ${count(4 * largest)} sequences or more, whose peaks differ by more than their spread`
  return null
}

/** One peak at one size against its capacity, with why in words. */
function judge(
  s: MemorySeries,
  sequences: number,
  capacityBytes: number | null,
  measured: readonly number[],
): { value: VerdictValue; why: string; unsupported?: true } {
  const bytes = s.at.find((a) => a.sequences === sequences)!.bytes
  // Beyond the largest size the interval carries the line's error out of sample, as time's does (issue 58).
  const beyond = sequences > Math.max(...measured)
  const misfit =
    beyond && s.misfit
      ? `, its interval carrying the line's error out of sample (${s.misfit.growthErrorPct >= 0 ? '+' : ''}${s.misfit.growthErrorPct.toFixed(1)}% of the growth at ${count(s.misfit.leftOut)} sequences, left out and refitted)`
      : ''
  const line = `${gib(bytes.estimate)} GiB${bytes.ci ? ` [${gib(bytes.ci.low)}, ${gib(bytes.ci.high)}]` : ' (no CI)'} from ${gib(s.fixedBytes.estimate)} GiB + ${(s.bytesPerSequence.estimate / 2 ** 20).toFixed(3)} MiB/sequence${misfit}`
  if (capacityBytes === null) return { value: 'inconclusive', why: `${line}; capacity unknown` }
  const against = `${line} against ${gib(capacityBytes)} GiB`
  if (!bytes.ci) return { value: 'inconclusive', why: `${against}; no CI` }
  const notSupported = unsupported(s, sequences, measured)
  if (notSupported) return { value: 'inconclusive', why: `${against}; ${notSupported}`, unsupported: true }
  const value = judgeAtMost(bytes.estimate, bytes.ci, capacityBytes)
  const fit = s.lineFit
  if (value === 'pass' && fit && fit.pValue < LINE_REJECTED_P && fit.upperSlope > fit.lowerSlope)
    return {
      value: 'inconclusive',
      why: `${against}; but the runs are not a line (lack of fit p = ${fit.pValue.toPrecision(2)}), bending upwards: a line projects it low`,
    }
  return { value, why: against }
}

function hostVerdict(c: ConfigMemory, sequences: number, host: MemoryHost, of: 'tree' | 'process' = 'tree'): Verdict {
  const s = c.series.find((x) => x.series === (of === 'tree' ? HOST_TREE : HOST_PROCESS))
  const judged = s ? judge(s, sequences, host.memBytes, c.sizes) : null
  // A projection the runs cannot support is no figure: its detail says what it read and why it stands for nothing.
  const bytes = judged?.unsupported ? undefined : s?.at.find((a) => a.sequences === sequences)?.bytes
  // The largest process alone (issue 56: a v2.0 worker keeps every embedding of its share until it aggregates), or the
  // whole tree: the same judgement, in its own words.
  const words =
    of === 'process'
      ? {
          id: 'process',
          whose: "the pipeline's largest process",
          read: 'peak of its largest process',
          none: `no line of its largest process: ${c.notFitted ?? 'the runs did not read their processes'}`,
        }
      : {
          id: 'host',
          whose: "the pipeline's processes",
          read: 'peak of the whole process tree, each page once',
          none: `no host-memory line: ${c.notFitted ?? 'the runs did not read the process tree'}`,
        }
  return verdict({
    id: `capacity/${c.gpuCount}/memory/${words.id}/${sequences}`,
    title: `host memory of ${words.whose} on ${c.label} at ${count(sequences)} sequences`,
    verdict: judged?.value ?? 'inconclusive',
    value: bytes ? bytes.estimate / GIB : null,
    unit: 'GiB',
    ci: bytes ? ciGib(bytes) : null,
    threshold: host.memBytes === null ? 'host RAM (unknown)' : `<= ${gib(host.memBytes)} GiB (host RAM)`,
    detail: judged ? `${words.read}: ${judged.why}${c.ciProblem ? `; ${c.ciProblem}` : ''}` : words.none,
  })
}

/**
 * A GPU's memory is bounded by what one batch holds (its size, the longest sequence, the allocator's cache), not by the
 * input: a line through its peaks at three small sizes, carried 1,000x beyond them, says nothing a GPU can run out of
 * (on 2 x H200 the reference pipeline's 1-GPU peaks rose 0.4 GiB from 1,000 to 4,000 records and a line read 2,657 GiB
 * at 6 M). So a projected GPU FAIL beyond the largest measured size is inconclusive, saying the memory grew; a FAIL
 * stands where a measured size already ran out, and a leak shows as that, or as host memory (a separate verdict).
 */
function beyondMeasured(
  j: { value: VerdictValue; why: string; unsupported?: true },
  sequences: number,
  largestMeasured: number,
): { value: VerdictValue; why: string; unsupported?: true } {
  if (j.value !== 'fail' || sequences <= largestMeasured) return j
  return {
    ...j,
    value: 'inconclusive',
    why: `${j.why}; a line of GPU peaks carried past the measured sizes (a batch's memory, not the input's, bounds it): not judged beyond them`,
  }
}

/** Every GPU's peak against its own memory: FAIL where any fails, PASS where all pass; the worst GPU is the figure. */
function gpuVerdict(c: ConfigMemory, sequences: number, host: MemoryHost): Verdict {
  const judged = c.series
    .filter((s) => s.of === 'gpu')
    .map((s) => ({
      s,
      capacity: host.gpuMemTotalBytes[s.gpu!] ?? null,
      ...beyondMeasured(
        judge(s, sequences, host.gpuMemTotalBytes[s.gpu!] ?? null, c.sizes),
        sequences,
        Math.max(...c.sizes),
      ),
    }))
  const share = (j: (typeof judged)[number]) =>
    j.s.at.find((a) => a.sequences === sequences)!.bytes.estimate / (j.capacity ?? Number.POSITIVE_INFINITY)
  const worst = judged.reduce<(typeof judged)[number] | null>((w, j) => (!w || share(j) > share(w) ? j : w), null)
  const value: VerdictValue =
    judged.length === 0
      ? 'inconclusive'
      : judged.some((j) => j.value === 'fail')
        ? 'fail'
        : judged.every((j) => j.value === 'pass')
          ? 'pass'
          : 'inconclusive'
  const bytes = worst?.unsupported ? undefined : worst?.s.at.find((a) => a.sequences === sequences)?.bytes
  return verdict({
    id: `capacity/${c.gpuCount}/memory/gpu/${sequences}`,
    title: `GPU memory on ${c.label} at ${count(sequences)} sequences`,
    verdict: value,
    value: bytes ? bytes.estimate / GIB : null,
    unit: 'GiB',
    ci: bytes ? ciGib(bytes) : null,
    threshold: "<= each GPU's memory",
    detail:
      judged.length > 0
        ? judged.map((j) => `GPU ${j.s.gpu}: ${j.value.toUpperCase()}, ${j.why}`).join('; ')
        : `no GPU memory line: ${c.notFitted ?? 'the runs read no GPU'}`,
    gpu: worst?.s.gpu ?? null,
  })
}

/**
 * Memory lines of each configuration and their verdicts at `sizes` (sequences: the targets, 45 K and 6 M).
 * Configurations whose measurement failed are left out: their fit verdict already says so, and a peak fitted to the
 * runs that completed would hide what failed (an out-of-memory error, most of all).
 * @param host what the memory is set against; by default what the runs recorded (memoryHostOf).
 */
export function memoryCapacity(
  configs: readonly { label: string; gpuCount: number; runs: readonly CapacityRun[]; failure: string | null }[],
  sizes: readonly number[],
  host: Partial<MemoryHost> = {},
): MemoryCapacity {
  const judged = configs.filter((c) => !c.failure)
  const on = memoryHostOf(
    judged.flatMap((c) => c.runs),
    host,
  )
  const figures = judged.map((c) => fitConfigMemory(c, sizes))
  const verdicts = figures.flatMap((c) =>
    sizes.flatMap((sequences) => [
      hostVerdict(c, sequences, on),
      hostVerdict(c, sequences, on, 'process'),
      gpuVerdict(c, sequences, on),
    ]),
  )
  return { figures, verdicts }
}

/**
 * Which sizes a capacity measurement fits, read from the pipeline's own structure (issue 48): a size model fitted
 * where every run is one file, or below a worker's batching buffer, measures start-up and extrapolates a cost
 * structure production never has (VirNucPro at 1,000-4,000 records: one file of 10,000 proteins, 17-24 s of its
 * 45-76 s an ESM-2 build; its 6 M projection missed a 20,000-record run by +15%). So the largest fitted size holds
 * at least UNITS_AT_LARGEST of the units that repeat at production:
 * - a stage that builds its model once per file (VirNucPro's 1-GPU v1 path): two files per process;
 * - a stage whose workers pack a batch only past a buffer (VirNucPro's v2 ESM-2 workers, 2,000 sequences;
 *   config/capacity-targets.ts `batching`): every fitted size past that buffer on every worker (BUFFERS_AT_SMALLEST),
 *   the largest four times the smallest.
 * The units are read from a probe run's log (its files' size, items per record) and the pipeline's targets; the fitted
 * sizes are three, spread geometrically (x2) up to that size, and one larger size is held out for the check
 * (capacity/held-out.ts): the user's whole sample, else the next size up. Pure.
 */
import { MIN_SIZE_RATIO, SMALLEST_SAMPLE } from '../config/capacity-sample.ts'
import { type CapacityTargets, onBatchingPath } from '../config/capacity-targets.ts'
import type { StageProgress } from '../results/schema/index.ts'

/** Units that repeat at production the largest fitted size holds at least (two files, or two buffers a worker). */
export const UNITS_AT_LARGEST = 2
/**
 * How far past the last whole unit the largest size reaches: half a unit. A size of exactly two files makes a third
 * file of a few items wherever a subset's items per record run a little above the probe's (on an H200, 12,354
 * records at the probe's 1.62 proteins a record made 20,013 proteins: three files, the third paying a whole ESM-2
 * build for 13 proteins), so a size planned on a boundary measures the boundary. Half a unit past it, the sizes x2
 * apart make 1, 2 and 3 files, none near a boundary.
 */
export const UNIT_MARGIN = 0.5
/** Fitted sizes, and the ratio between neighbours (geometric: each size doubles the one before). */
export const FITTED_SIZES = 3
export const SIZE_RATIO = 2
/** The smallest fitted size a plan goes down to: below it a run is start-up only. */
export const MIN_FITTED_RECORDS = 500
/**
 * Buffers a worker the smallest fitted size holds on a batching path. Below one buffer a worker never packs a batch:
 * it flushes everything through its collator unbatched, with no batch line to read a rate from, a path production
 * never takes. On an H200 (2026-12-07) a plan of 810 / 1,620 / 3,239 reads (2.5 buffers at the largest) ran ESM-2 on
 * 1,247 proteins by that flush (`0.0 seq/s`) and on 2,493 barely past the buffer: two of its three sizes measured
 * another path than the one it projected. A quarter past one buffer, the remainder flushed at the end is the smaller
 * part of every fitted run; the sizes x2 apart are then 1.25, 2.5 and 5 buffers a worker.
 */
export const BUFFERS_AT_SMALLEST = 1.25

/** What one probe run says of the pipeline's structure. */
export interface PipelineStructure {
  /** Records the probe read. */
  probeRecords: number
  /** A stage that builds its model per file: its files' size (items) and its items per record of the input. */
  perFile: { stage: string; itemsPerFile: number; itemsPerRecord: number } | null
  /** The batching buffer (targets) with the items per record of its stage, as the probe counted them (else 1). */
  batching: { stage: string; itemsPerWorker: number; fromGpus: number; itemsPerRecord: number; counted: boolean } | null
}

/**
 * The structure a probe run shows: its `file-lines` series whose files built a model (the per-file stage), and the
 * targets' batching buffer with its stage's items per record (from any of that stage's series in the probe).
 */
export function structureOf(
  probe: { records: number; progress: readonly StageProgress[] },
  batching: CapacityTargets['batching'],
): PipelineStructure {
  if (!(probe.records > 0)) throw new RangeError(`a probe of ${probe.records} records shows no structure`)
  const perFileSeries = probe.progress.find(
    (p) => p.source === 'file-lines' && p.worker === null && (p.setupMs ?? 0) > 0 && p.itemsPerFile && p.total > 0,
  )
  // A stage's items in the probe: the main process's series, else its workers' totals summed.
  const itemsOf = (stage: string) => {
    const series = probe.progress.filter((p) => p.stage === stage)
    const main = series.find((p) => p.worker === null)
    return main ? main.total : series.reduce((a, p) => a + p.total, 0)
  }
  const batchItems = batching ? itemsOf(batching.stage) : 0
  return {
    probeRecords: probe.records,
    perFile: perFileSeries
      ? {
          stage: perFileSeries.stage,
          itemsPerFile: perFileSeries.itemsPerFile!,
          itemsPerRecord: perFileSeries.total / probe.records,
        }
      : null,
    batching: batching
      ? {
          ...batching,
          itemsPerRecord: batchItems > 0 ? batchItems / probe.records : 1,
          counted: batchItems > 0,
        }
      : null,
  }
}

/** The records at which a configuration of `gpuCount` GPUs shows its repeating unit UNITS_AT_LARGEST times, and why. */
export interface RepeatingUnit {
  gpuCount: number
  records: number
  why: string
  /** Records one unit holds (a file; a buffer on every worker): where the unit boundaries fall. */
  unitRecords?: number
  /** The smallest size on the unit's path (a batching path: BUFFERS_AT_SMALLEST on every worker); absent: none. */
  floorRecords?: number
}

const n = (x: number) => Math.round(x).toLocaleString('en-US')

/** A configuration's repeating unit, or null where its path has none the structure names. */
export function repeatingUnit(
  s: PipelineStructure,
  gpuCount: number,
  /** The configuration's architecture (issue 56: v2.0's buffer on one GPU too); absent: by GPU count, as before. */
  architecture?: string | null,
): RepeatingUnit | null {
  if (s.batching && onBatchingPath(s.batching, gpuCount, architecture)) {
    const b = s.batching
    const buffer = (gpuCount * b.itemsPerWorker) / b.itemsPerRecord
    const floorRecords = Math.ceil(BUFFERS_AT_SMALLEST * buffer)
    const buffersAtLargest = Math.max(
      UNITS_AT_LARGEST + UNIT_MARGIN,
      BUFFERS_AT_SMALLEST * SIZE_RATIO ** (FITTED_SIZES - 1),
    )
    const records = Math.ceil(buffersAtLargest * buffer)
    return {
      gpuCount,
      records,
      unitRecords: buffer,
      floorRecords,
      why: `${gpuCount} GPUs: ${b.stage} packs a batch past its ${n(b.itemsPerWorker)}-item buffer a worker and flushes anything short of it unbatched; ${n(floorRecords)} to ${n(records)} records give each of ${gpuCount} workers ${BUFFERS_AT_SMALLEST} to ${buffersAtLargest} buffers, every fitted run on the packed path production takes (${b.itemsPerRecord.toFixed(2)} items a record${b.counted ? '' : ', not counted by the probe: 1 assumed'})`,
    }
  }
  // A stage that builds per file in the main process: VirNucPro's v1.0 on one GPU (ESM-2 and DNABERT-S), and on
  // v2.0 its DNABERT-S, which stays v1.0 (UPSTREAM.md).
  if (s.perFile && gpuCount === 1) {
    const f = s.perFile
    const records = Math.ceil(((UNITS_AT_LARGEST + UNIT_MARGIN) * f.itemsPerFile) / f.itemsPerRecord)
    return {
      gpuCount,
      records,
      unitRecords: f.itemsPerFile / f.itemsPerRecord,
      why: `1 GPU: ${f.stage} builds its model once per file of ${n(f.itemsPerFile)} items; ${n(records)} records make ${UNITS_AT_LARGEST + UNIT_MARGIN} files' worth, so the sizes make 1, 2 and 3 files, none on a boundary (${f.itemsPerRecord.toFixed(2)} items a record)`,
    }
  }
  return null
}

/**
 * The largest size a sample too small for the plan allows, kept half a unit past a unit boundary (the H200 run of
 * 2026-11-29: half its 16,000-read sample, 8,000 reads, made 10,160 proteins, a second file of 160 paying a whole
 * build). Where not even half a unit fits, the room itself.
 */
function offBoundary(room: number, units: readonly RepeatingUnit[]): number {
  const unit = Math.max(0, ...units.map((u) => u.unitRecords ?? 0))
  if (!(unit > 0)) return room
  const halves = Math.floor(room / unit - UNIT_MARGIN)
  return halves >= 0 ? Math.floor((halves + UNIT_MARGIN) * unit) : room
}

/** The sizes a measurement fits and the one it holds out, with why, in words the answer prints. */
export interface SizePlan {
  /** Records of each fitted size, ascending (FITTED_SIZES of them, fewer only where the sample is that small). */
  fitted: number[]
  /** Sizes to hold out, in order of preference: the whole sample, then the next size up (records). */
  heldOut: number[]
  /** What the plan chose and why. */
  why: string
  /** The sample is too small to show the repeating units with a larger size held out: the sample that would do. */
  tooSmall: { needRecords: number; text: string } | null
}

/**
 * The plan for a sample of `sampleRecords`: the largest fitted size the largest repeating unit over the
 * configurations (or, with none, half the sample), kept to half the sample so a size twice as large is left for the
 * check; FITTED_SIZES sizes down from it by SIZE_RATIO, none under MIN_FITTED_RECORDS (or the probe's size, where
 * that is smaller). Held out: the whole sample, and the next size up where it is smaller than the sample.
 */
export function planSizes(units: readonly (RepeatingUnit | null)[], sampleRecords: number): SizePlan {
  if (!(sampleRecords >= SMALLEST_SAMPLE))
    throw new RangeError(
      `a sample of ${sampleRecords} records cannot be measured at sizes (the settings check refuses it)`,
    )
  const known = units.filter((u): u is RepeatingUnit => u !== null)
  const need = known.length > 0 ? Math.max(...known.map((u) => u.records)) : null
  const room = Math.floor(sampleRecords / SIZE_RATIO)
  // Two records at the least, so two sizes fit under it (the sample holds four: SMALLEST_SAMPLE).
  const largest = Math.max(2, need === null ? room : need <= room ? need : offBoundary(room, known))
  // Sizes under MIN_FITTED_RECORDS only where the sample leaves no two sizes above it, said in the plan (issue 58: a
  // 1,002-record sample was fitted at 500 and 501 records, "x2 apart", and read FINAL at 23.3 h [0.0, 8743.1]).
  // A batching path's floor keeps every fitted run past its buffer (BUFFERS_AT_SMALLEST), where the sample allows.
  const floor = Math.max(MIN_FITTED_RECORDS, ...known.map((u) => u.floorRecords ?? 0))
  const above = spacedSizes(largest, Math.min(floor, largest))
  const fitted = above.length >= 2 ? above : spacedSizes(largest, 1)
  // Said where the sample is what holds the sizes down (a small repeating unit is no fault of the sample).
  const belowFloor = above.length < 2 && need === null
  const nextUp = largest * SIZE_RATIO
  const heldOut = [sampleRecords, ...(nextUp < sampleRecords ? [nextUp] : [])]
  const needSample = need === null ? null : need * SIZE_RATIO
  const floorSample = MIN_FITTED_RECORDS * SIZE_RATIO ** FITTED_SIZES
  const tooSmall =
    needSample !== null && needSample > sampleRecords
      ? {
          needRecords: needSample,
          text: `the sample of ${n(sampleRecords)} records is too small to fit ${n(need!)} records (${UNITS_AT_LARGEST + UNIT_MARGIN} of the units that repeat at production) with a larger size held out: a sample of ${n(needSample)} records would do; fitted up to ${n(largest)}, half a unit past a whole one`,
        }
      : belowFloor
        ? {
            needRecords: floorSample,
            text: `the sample of ${n(sampleRecords)} records leaves room only for sizes under ${n(MIN_FITTED_RECORDS)} records, where a run is mostly start-up: a sample of ${n(floorSample)} records would do`,
          }
        : null
  const because =
    known.length > 0
      ? known.map((u) => u.why).join('; ')
      : 'no unit that repeats at production in the probe (no model built per file, no batching buffer): up to half the sample'
  return {
    fitted,
    heldOut,
    why: `fitted at ${fitted.map(n).join(' / ')} records (at least x${MIN_SIZE_RATIO} apart), held out ${heldOut.map(n).join(', else ')}: ${because}${tooSmall ? `; ${tooSmall.text}` : ''}`,
    tooSmall,
  }
}

/**
 * FITTED_SIZES sizes down from `largest` by SIZE_RATIO, none under `floor`, each kept only at least MIN_SIZE_RATIO
 * below the next one kept (a floor or rounding can bring two together): ascending, distinct.
 */
function spacedSizes(largest: number, floor: number): number[] {
  const kept: number[] = []
  for (let i = 0; i < FITTED_SIZES; i++) {
    const size = Math.max(floor, 1, Math.round(largest / SIZE_RATIO ** i))
    if (kept.length === 0 || size * MIN_SIZE_RATIO <= kept.at(-1)! + 1e-9) kept.push(size)
  }
  return kept.reverse()
}

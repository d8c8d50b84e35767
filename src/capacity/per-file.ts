/**
 * What a stage pays per file, where the pipeline works through its input in files and builds its model once per file
 * (VirNucPro's v1 path: `extract_esm_features` loads the 3B ESM-2 for every file of `prediction.sequences_per_file`
 * sequences, 10,000 by default; on an H100 with the stand-in weights 30-32 s a file, test/fixtures/virnucpro/).
 *
 * Where the runs let it, the capacity model counts the builds as a part of their own (capacity/builds.ts), and this
 * check has nothing to say of that stage. Elsewhere (no split line, a stage not split into `pre` and `steady`):
 *
 * The size model reads a stage as start-up + steady work. A model built once per file is start-up in every run whose
 * input fits one file, and the runs a capacity test can afford (1,000-4,000 records) all do: the build is then held as
 * paid once, while 6 M sequences make hundreds of files and pay it hundreds of times (about 9.5 h at 32 s a file for
 * 960 files). Across sizes that make different numbers of files the build is a step that grows with the input, which
 * the start-up part's line follows; across sizes that all make the same number it is invisible. So where every
 * measured size made the same number of files, the files' size is known and production makes more of them, the
 * projection is not supported: the problem names the build's cost and the size to measure (one that makes three files
 * or more, so the steps show as a line).
 */
import { median, toSorted } from '../measure/index.ts'
import type { MeasuredRun } from '../results/schema/index.ts'

/** A stage's files in one run: how many, the items in them, the ms they spent building a model, the files' size. */
export interface FileWork {
  files: number
  items: number
  setupMs: number
  /** From the pipeline's split line; null where the run logged none. */
  itemsPerFile: number | null
}

/** Files a size to measure next should make, so that the per-file steps show across sizes. */
export const FILES_TO_MEASURE = 3

/**
 * Per stage, its files in this run: from its `file-lines` series in the main process (the v1 path; v2's workers print
 * no file lines). Only stages whose files built a model: for the others a file costs no more than its items.
 */
export function fileWorkOf(o: Pick<MeasuredRun, 'progress'>): Record<string, FileWork> {
  const out: Record<string, FileWork> = {}
  for (const p of o.progress ?? []) {
    if (p.source !== 'file-lines' || p.worker !== null || !(p.setupMs && p.setupMs > 0)) continue
    out[p.stage] = {
      files: p.atMs.length / 2,
      items: p.total,
      setupMs: p.setupMs,
      itemsPerFile: p.itemsPerFile ?? null,
    }
  }
  return out
}

/** One configuration's runs as this check reads them: size (sequences of GPU work) and each stage's files. */
export interface PerFileRun {
  size: number
  files?: Record<string, FileWork>
}

export interface PerFileCheck {
  stage: string
  /** The files each measured size made (the most of its runs). */
  filesBySize: { sequences: number; files: number }[]
  /** The build's median cost per file over the runs, ms. */
  setupMsPerFile: number
  /** Files the production size makes, or null where the files' size is not known. */
  productionFiles: number | null
  /** The build's cost at production size that the model does not hold (paid once in its start-up), ms. */
  missingMs: number | null
  /** Sequences (GPU work) that make FILES_TO_MEASURE files. */
  sequencesToMeasure: number | null
  problem: string | null
}

const hours = (ms: number) => `${(ms / 3_600_000).toFixed(1)} h`

/**
 * The check of each stage that builds a model per file in every run. `productionWallMs`: the model's production-size
 * wall time, which a missing build is weighed against (a cost under `tolerance` of it is no problem).
 */
export function perFileChecks(
  runs: readonly PerFileRun[],
  production: number,
  productionWallMs: number,
  tolerance: number,
  /** Stages whose builds the model holds as a part of their own (capacity/builds.ts): nothing is missing from them. */
  modelled: ReadonlySet<string> = new Set(),
): PerFileCheck[] {
  const stages = new Set(runs.flatMap((r) => Object.keys(r.files ?? {})))
  const checks: PerFileCheck[] = []
  for (const stage of stages) {
    const work = runs.map((r) => ({ size: r.size, work: r.files?.[stage] }))
    if (!work.every((w) => w.work !== undefined)) continue
    const all = work as { size: number; work: FileWork }[]
    const sizes = [...new Set(all.map((w) => w.size))].sort((a, b) => a - b)
    const filesBySize = sizes.map((sequences) => ({
      sequences,
      files: Math.max(...all.filter((w) => w.size === sequences).map((w) => w.work.files)),
    }))
    const setupMsPerFile = median(toSorted(all.map((w) => w.work.setupMs / w.work.files)))
    const largest = all.filter((w) => w.size === sizes.at(-1))
    const itemsPerSequence = median(toSorted(largest.map((w) => w.work.items / w.size)))
    const perFile = largest.map((w) => w.work.itemsPerFile).find((k) => k !== null) ?? null
    const productionFiles = perFile === null ? null : Math.ceil((itemsPerSequence * production) / perFile)
    const measuredFiles = filesBySize.at(-1)!.files
    const sameFiles = new Set(filesBySize.map((f) => f.files)).size === 1
    const missingMs =
      productionFiles === null || !sameFiles || modelled.has(stage)
        ? null
        : Math.max(0, productionFiles - measuredFiles) * setupMsPerFile
    const sequencesToMeasure =
      perFile === null || modelled.has(stage) ? null : (FILES_TO_MEASURE * perFile) / itemsPerSequence
    const problem =
      missingMs !== null && productionFiles !== null && missingMs > tolerance * productionWallMs
        ? `${stage} builds its model once per file of ${perFile!.toLocaleString('en-US')} items (${(setupMsPerFile / 1000).toFixed(1)} s a file) and every measured size made ${measuredFiles} file${measuredFiles === 1 ? '' : 's'}: the projection holds that build as paid once, where ${Math.round(production).toLocaleString('en-US')} sequences make about ${productionFiles.toLocaleString('en-US')} files and pay it ${hours(missingMs)} more; measure a size that makes ${FILES_TO_MEASURE} files or more`
        : null
    checks.push({ stage, filesBySize, setupMsPerFile, productionFiles, missingMs, sequencesToMeasure, problem })
  }
  return checks
}

/**
 * A model built once per file, as a part of its own (VirNucPro's v1 path builds the 3B ESM-2 for every file of
 * 10,000 proteins: 30-33 s a file on an H100 with the stand-in weights, about 9 h of a 6 M-sequence run).
 *
 * Read as start-up, a build is held as paid once, where production pays it once a file; read as a line across sizes
 * that make different numbers of files, the line runs through steps and its slope depends on where the sizes fall
 * (1, 1 and 3 files at 1,000, 3,750 and 18,750 sequences give a slope 25% under the builds' own). So each run's builds
 * (its files' `Extracting` to `ready`, capacity/per-file.ts) are taken out of the stage's `pre` part that held them,
 * and become a part of their own: the cost of one build, the same at every size (its mean over the runs, its CI from
 * their spread like any constant part), times the files a size makes (parts.ts's FileCount: a step). Every run gives
 * a sample, whatever its size, and the measured sizes stay reproduced exactly.
 *
 * Only where every run of the configuration built per file, logged its files' size, and split the stage into `pre`
 * and `steady` (the builds sit in `pre`); elsewhere the stage is read as before and per-file.ts says what is missing.
 */
import { median, toSorted } from '../measure/index.ts'
import type { FileCount } from './parts.ts'
import { buildsSeries, type CapacityRun, preSeries } from './runs.ts'

export interface Builds {
  /** The runs, each stage's builds moved out of its `pre` part into its `builds` series (ms a file). */
  runs: CapacityRun[]
  /** Per `builds` series, how a size's files are counted. */
  fileCounts: Record<string, FileCount>
}

/** The runs with the builds of each stage that qualifies (see above) as a part of their own. */
export function withBuilds(runs: readonly CapacityRun[], series: readonly string[]): Builds {
  const out = runs.map((r) => ({ ...r, values: { ...r.values } }))
  const fileCounts: Record<string, FileCount> = {}
  const stages = [...new Set(runs.flatMap((r) => Object.keys(r.files ?? {})))]
  for (const stage of stages) {
    const pre = preSeries(stage)
    if (!series.includes(pre)) continue
    const work = runs.map((r) => r.files?.[stage])
    if (!work.every((w) => w !== undefined && w.files > 0 && w.setupMs > 0 && w.itemsPerFile !== null)) continue
    const all = work as NonNullable<(typeof work)[number]>[]
    const perFile = new Set(all.map((w) => w.itemsPerFile))
    // A `pre` part that holds less than the builds read in its run: the two were read from different lines; leave it.
    if (perFile.size !== 1 || !out.every((r, i) => r.values[pre]! >= all[i]!.setupMs)) continue
    const name = buildsSeries(stage)
    out.forEach((r, i) => {
      r.values[pre]! -= all[i]!.setupMs
      r.values[name] = all[i]!.setupMs / all[i]!.files
    })
    const largest = Math.max(...runs.map((r) => r.size))
    const itemsPerSequence = median(
      toSorted(runs.flatMap((r, i) => (r.size === largest ? [all[i]!.items / r.size] : []))),
    )
    const measured = new Map<number, number>()
    for (const [i, r] of runs.entries()) measured.set(r.size, Math.max(measured.get(r.size) ?? 0, all[i]!.files))
    fileCounts[name] = { itemsPerSequence, itemsPerFile: all[0]!.itemsPerFile!, measured }
  }
  return { runs: out, fileCounts }
}

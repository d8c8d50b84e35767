/**
 * Re-analysis of stored runs (`virnucpro-bench capacity RUN_DIR...`): the measured runs of every record of one or more
 * run directories, grouped by configuration (the runs' own config, the size left out, and the input they were cut from)
 * and by measured size (the subset each run read, from its record's provenance), refitted with today's size model and
 * projected to any size: a model change or a new question costs no GPU time. Each run's in-run rates come from its
 * record, completed from its pipeline and monitor logs where the record predates a source (the caller reads them:
 * capacity/refit-sources.ts); the notes say which, per configuration.
 */
import type { MeasuredRun, ResultRecord } from '../results/schema/index.ts'
import type { CapacityConfigRuns, CapacityFrame } from './analyze.ts'
import type { HeldOut } from './held-out.ts'
import { newSourceCount, type RunSources, runArchitecture, sourceNotes, withKeptSources } from './refit-sources.ts'
import { capacityRun } from './runs.ts'

export interface RefitOptions extends RunSources {
  /** Measured sizes (records) to fit from; default every size measured. */
  sizes?: readonly number[]
  /** The stages PERF-02 judges (their GPU-busy time and start-up are read). */
  gpuStages: readonly string[]
}

export interface RefitInput {
  configs: CapacityConfigRuns[]
  frame: CapacityFrame
  /** What each configuration's figures were read from, and what was left out. */
  notes: string[]
  /** Runs at measured sizes left out of the fit (--sizes): what the projection is checked against. */
  heldOut: HeldOut[]
}

export type { HeldOut }

interface SizedRun {
  run: MeasuredRun
  record: ResultRecord
  records: number
  sequences: number
}

/** A measurement's size in its label: `1 GPU, 4,000 seqs`, `... seqs direct`, `... seqs top-up 2`. */
const SIZE_SUFFIX = /, [\d,]+ seqs(?: .*)?$/
/** A run of a size measured directly to check a projection (capacity/suite.ts measureDirect): `... seqs direct run 1`. */
const isDirect = (r: SizedRun) => /, [\d,]+ seqs direct\b/.test(r.run.label)

/** The configuration a run belongs to: its config without the size in its label, and the input it was cut from. */
function configKey(run: MeasuredRun, record: ResultRecord): { key: string; label: string; gpuCount: number } {
  const { setup, ...rest } = run.config
  const label = String(setup ?? run.label).replace(SIZE_SUFFIX, '')
  // CPU stand-ins for GPUs (worker processes on a machine without one) hold no GPU: their worker count is the k.
  const gpus = typeof rest.gpuCount === 'number' ? rest.gpuCount : 0
  const gpuCount = gpus > 0 ? gpus : typeof rest.cpuWorkers === 'number' && rest.cpuWorkers > 0 ? rest.cpuWorkers : 1
  return { key: JSON.stringify([record.provenance.input?.source.sha256 ?? null, rest]), label, gpuCount }
}

/** The subset a run read: the record's provenance names each input file and its size. */
function sizeOf(run: MeasuredRun, record: ResultRecord): { records: number; sequences: number } | null {
  const args = new Set(run.run.command?.args ?? [])
  const used = record.provenance.input?.used.find((u) => args.has(u.file))
  return used ? { records: used.records, sequences: used.records * (1 + used.workRelativeDifference) } : null
}

/** Measured runs of every record, each once (a run several records share is read once), with their sizes. */
function collectRuns(records: readonly ResultRecord[], notes: string[]): SizedRun[] {
  const seen = new Set<string>()
  const out: SizedRun[] = []
  let unsized = 0
  for (const record of records)
    for (const run of record.runs) {
      if (run.warmup) continue
      const id = run.run.logPath ?? `${run.label}@${run.run.startedAt}`
      if (seen.has(id)) continue
      seen.add(id)
      const size = sizeOf(run, record)
      if (size) out.push({ run, record, ...size })
      else unsized++
    }
  if (unsized > 0) notes.push(`${unsized} run(s) left out: their record's provenance does not name the input they read`)
  return out
}

function configRuns(group: SizedRun[], options: RefitOptions, notes: string[]): CapacityConfigRuns {
  const { label, gpuCount } = configKey(group[0]!.run, group[0]!.record)
  const count = newSourceCount()
  const completed = group.filter((r) => r.run.run.exitClass === 'completed')
  const failed = group.find((r) => r.run.run.exitClass !== 'completed')
  const runs = completed.flatMap((r) => {
    const run = capacityRun(withKeptSources(r.run, r.record, options, count), r.sequences, options.gpuStages)
    return run ? [run] : []
  })
  notes.push(...sourceNotes(label, count))
  return {
    label,
    gpuCount,
    architecture: architectureOfRuns(completed, options),
    runs,
    recordsBySize: new Map(group.map((r) => [r.sequences, r.records])),
    failure: failed ? `${failed.run.label} ended as ${failed.run.run.exitClass}: ${failed.run.run.reason ?? ''}` : null,
  }
}

/** The architecture a configuration's runs ran (refit-sources.ts runArchitecture); null where none says or they disagree. */
function architectureOfRuns(runs: readonly SizedRun[], options: RefitOptions): string | null {
  const seen = new Set(runs.map((r) => runArchitecture(r.run, r.record, options)))
  return seen.size === 1 ? ([...seen][0] ?? null) : null
}

const medianOf = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** Completed runs the fit left out, per configuration and size, with their median wall time. */
function heldOutOf(runs: readonly SizedRun[]): HeldOut[] {
  const groups = new Map<string, SizedRun[]>()
  for (const r of runs.filter((x) => x.run.run.exitClass === 'completed')) {
    const key = `${configKey(r.run, r.record).key}\u0000${r.records}`
    groups.set(key, [...(groups.get(key) ?? []), r])
  }
  return [...groups.values()].map((g) => {
    const { label, gpuCount } = configKey(g[0]!.run, g[0]!.record)
    return {
      label,
      gpuCount,
      records: g[0]!.records,
      sequences: g[0]!.sequences,
      runs: g.length,
      medianWallMs: medianOf(g.map((r) => r.run.run.wallMs)),
    }
  })
}

const inputOf = (r: SizedRun) => r.record.provenance.input?.source.sha256 ?? ''

/** The runs of one input (the one most runs read): sizes of different inputs are no nested subsets of one another. */
function oneInput(runs: SizedRun[], notes: string[]): SizedRun[] {
  const counts = new Map<string, number>()
  for (const r of runs) counts.set(inputOf(r), (counts.get(inputOf(r)) ?? 0) + 1)
  if (counts.size <= 1) return runs
  const [chosen] = [...counts].sort((a, b) => b[1] - a[1])[0]!
  notes.push(
    `the run directories hold runs of ${counts.size} inputs; refitted: the one most runs read (sha256 ${chosen.slice(0, 12)}); left out: ${[
      ...counts.keys(),
    ]
      .filter((k) => k !== chosen)
      .map((k) => k.slice(0, 12))
      .join(', ')} (refit their run directories on their own)`,
  )
  return runs.filter((r) => inputOf(r) === chosen)
}

/**
 * A configuration's runs without a size that has a single completed run while two sizes or more have two or more: a
 * measurement cut between the two runs of a design's step (or still running) left it, and a size of one run holds no
 * spread, so it would take every interval of the fit away (the model's degrees of freedom are its fewest runs at a
 * size, less one). Said in a note; with --sizes, what is named is fitted as it is.
 */
function withoutLoneRuns(group: SizedRun[], notes: string[]): SizedRun[] {
  const done = (r: SizedRun) => r.run.run.exitClass === 'completed'
  const runsAt = new Map<number, number>()
  for (const r of group.filter(done)) runsAt.set(r.records, (runsAt.get(r.records) ?? 0) + 1)
  const lone = [...runsAt].filter(([, n]) => n === 1).map(([records]) => records)
  if (lone.length === 0 || [...runsAt.values()].filter((n) => n >= 2).length < 2) return group
  const { label } = configKey(group[0]!.run, group[0]!.record)
  notes.push(
    `${label}: ${lone.map((r) => r.toLocaleString('en-US')).join(', ')} records held out of the fit: one run so far (a size needs two for its spread)`,
  )
  return group.filter((r) => !lone.includes(r.records))
}

/** Configurations and frame for analyzeCapacityRuns from stored records; 1 GPU first. */
export function refitInput(records: readonly ResultRecord[], options: RefitOptions): RefitInput {
  const notes: string[] = []
  const wanted = options.sizes ? new Set(options.sizes) : null
  const all = oneInput(collectRuns(records, notes), notes)
  // Without --sizes, a size measured directly to check the projection (`... seqs direct`) is held out, as the suite
  // held it out of the record's own fit; with --sizes, the sizes named are fitted, whatever their labels.
  const fitted = (r: SizedRun) => (wanted === null ? !isDirect(r) : wanted.has(r.records))
  const runs = all.filter(fitted)
  const groups = new Map<string, SizedRun[]>()
  for (const r of runs) {
    const { key } = configKey(r.run, r.record)
    groups.set(key, [...(groups.get(key) ?? []), r])
  }
  if (wanted === null) for (const [key, g] of groups) groups.set(key, withoutLoneRuns(g, notes))
  const spanning = [...groups.values()].filter((g) => new Set(g.map((r) => r.records)).size >= 2)
  const single = groups.size - spanning.length
  if (single > 0) notes.push(`${single} configuration(s) left out: measured at one size only (a refit needs two)`)
  const configs = spanning
    .map((g) => configRuns(g, options, notes))
    .sort((a, b) => a.gpuCount - b.gpuCount || a.label.localeCompare(b.label))
  const sizes = [...new Set(runs.map((r) => r.records))].sort((a, b) => a - b)
  const largest = runs.filter((r) => r.records === sizes.at(-1))
  const source = runs[0]?.record.provenance.input?.source
  return {
    configs,
    heldOut: heldOutOf(all.filter((r) => !fitted(r))),
    frame: {
      input: {
        source: source?.source ?? 'generated',
        path: source?.path ?? '',
        sha256: source?.sha256 ?? '',
        records: source?.records ?? 0,
        workPerRecord: source?.workPerRecord ?? 0,
        chunkLength: source?.chunkLength ?? 0,
        preset: source?.preset ?? null,
      },
      sizes,
      measuredSequences: largest[0]?.sequences ?? 0,
    },
    notes,
  }
}

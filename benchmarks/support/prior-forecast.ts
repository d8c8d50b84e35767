/**
 * Prices every file of the gpu project before its first run (issue 57): its outline (file-plans.ts: the runs its
 * settings plan, or that it skips) at the cost prior of this host's GPU kind (src/config/forecast-prior.ts), plus the
 * file's own time beside its runs as measured. Made once in the global setup (run-context-setup.ts) and handed to the
 * run-lines reporter with the invocation's progress, which says it in the first `[plan]` line.
 */
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import {
  type ForecastPrior,
  itemsPerKbAt,
  priorArchitectures,
  priorKind,
  priorKinds,
  type RunSize,
  readForecastPrior,
  runCostMs,
  runCostOf,
} from '../../src/config/forecast-prior.ts'
import type { FilePrior, PriorForecast } from '../../src/engine/invocation-progress/index.ts'
import { suiteName } from '../../src/engine/invocation-progress/index.ts'
import { suiteSettings } from '../../src/engine/settings.ts'
import type { Architecture } from '../../src/pipeline/architecture-line.ts'
import { REPO_ROOT, selectProfile } from '../../src/pipeline/profiles.ts'
import { type FileOutline, fileOutline, type OutlineContext, type PlannedRuns } from './file-plans.ts'

/** The gpu project's test files (vitest.config.ts: benchmarks/**\/*.gpu.test.ts), relative to the repository. */
export function gpuTestFiles(root = REPO_ROOT): string[] {
  return readdirSync(join(root, 'benchmarks'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.gpu.test.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .sort()
}

const median = (xs: readonly number[]): number | null => {
  if (xs.length === 0) return null
  const s = xs.toSorted((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

/**
 * A pipeline file's time beside its runs (inputs made, analysis): its own as measured on a host of this kind, else
 * the median of that kind's files, else, for a GPU kind, the GPU hosts' (that work is the host's CPU's, and the GPU
 * hosts measured are alike: 16 cores); the CPU stand-in's only its own.
 */
function overheadMs(prior: ForecastPrior, kind: string, file: string): number {
  const own = prior.fileOverhead.find((f) => f.kind === kind && f.file === file)
  if (own) return own.ms
  const ofKind = median(prior.fileOverhead.filter((f) => f.kind === kind).map((f) => f.ms))
  if (ofKind !== null || kind === 'CPU') return ofKind ?? 0
  return median(prior.fileOverhead.filter((f) => f.kind !== 'CPU').map((f) => f.ms)) ?? 0
}

interface Pricing {
  prior: ForecastPrior
  kind: string
  runMs: (size: RunSize, gpus: number, architecture: Architecture) => number | null
  /** Why runs on `gpus` GPUs on `architecture` have no prior: the GPU count, or the path where the count has others. */
  why: (gpus: number, architecture: Architecture) => string
}

/** Runs priced: their ms, and the runs of a GPU count or an architecture with no prior named. */
function runsMs(p: Pricing, runs: readonly PlannedRuns[], unknown: string[]): number {
  let ms = 0
  for (const r of runs) {
    const each = p.runMs(r.size, r.gpus, r.architecture)
    if (each === null) unknown.push(p.why(r.gpus, r.architecture))
    else ms += each * r.count
  }
  return ms
}

const countOf = (runs: readonly PlannedRuns[]) => runs.reduce((a, r) => a + r.count, 0)

/** A file of planned runs, priced: its runs and overhead, its shared runs apart; what has no prior named unknown. */
function priced(p: Pricing, file: string, outline: Extract<FileOutline, { runs: PlannedRuns[] }>): FilePrior {
  const unknown = [...outline.unplanned]
  const ms = runsMs(p, outline.runs, unknown)
  const shared = outline.shared && {
    group: outline.shared.group,
    ms: runsMs(p, outline.shared.runs, unknown),
    runs: countOf(outline.shared.runs),
  }
  // Where no planned run has a prior at all, the file's time is not known; where some have, it is at least their sum.
  const planned = [...outline.runs, ...(outline.shared?.runs ?? [])]
  const anyPriced =
    planned.length === 0
      ? outline.unplanned.length === 0
      : planned.some((r) => p.runMs(r.size, r.gpus, r.architecture) !== null)
  // The capacity design's most, on the GPUs held: wall time beyond the plan that its budget allows.
  const designMs = (outline.design ?? []).reduce((a, d) => a + (d.gpuMinutes * 60_000) / Math.max(1, d.held), 0)
  return {
    ms: anyPriced ? ms + overheadMs(p.prior, p.kind, file) : null,
    runs: countOf(outline.runs),
    unknown: [...new Set(unknown)],
    ...(shared ? { shared } : {}),
    ...(anyPriced && designMs > 0 ? { designMs } : {}),
  }
}

/**
 * The forecast of every gpu-project file by the prior (see the file's comment).
 * @param gpuNames NVML's device names, GPU 0 first (gpu-global-setup.ts probeAvailability)
 * @param user the user's sample (VIRNUCPRO_BENCH_INPUT): records and mean length; null for the generated presets
 */
export function priorForecast(o: {
  env: NodeJS.ProcessEnv
  gpuNames: readonly string[]
  user: RunSize | null
  files?: readonly string[]
  prior?: ForecastPrior
}): PriorForecast {
  const settings = suiteSettings(o.env)
  const pipeline = selectProfile(undefined, o.env).name
  const prior = o.prior ?? readForecastPrior()
  const kind = priorKind(settings.device, o.gpuNames)
  const scale = settings.modelScale
  const perFile = prior.perFile.find((f) => f.pipeline === pipeline) ?? null
  // Each run by a cost of its own path (v2.0, v1.0) or of one that does not tell them apart: never by the other's.
  const runMs = (size: RunSize, gpus: number, architecture: Architecture) => {
    const cost = kind ? runCostOf(prior, { pipeline, scale, kind, gpus, architecture }) : null
    return cost ? runCostMs(cost, perFile, size) : null
  }
  const why = (gpus: number, architecture: Architecture) =>
    kind && priorArchitectures(prior, { pipeline, scale, kind, gpus }).length > 0
      ? `${gpus}-GPU ${architecture} runs (no ${kind} prior for ${architecture})`
      : `${gpus}-GPU runs (no ${kind} prior for ${gpus} GPUs)`
  // No cost of this kind on any GPU count or path: no forecast at all (a path or count missing is said per file).
  const kinds = priorKinds(prior, pipeline, scale)
  const missing =
    kind === null
      ? 'NVML names no GPU here'
      : !kinds.includes(kind)
        ? `no prior for ${kind} (${pipeline} pipeline${pipeline === 'reference' ? ` at ${scale} scale` : ''}; kept for: ${kinds.join(', ') || 'none'})`
        : null
  const ctx: OutlineContext = {
    env: o.env,
    settings,
    pipeline,
    gpuCount: settings.device === 'cpu' ? 1 : o.gpuNames.length,
    user: o.user,
    itemsPerRecord: perFile ? (length) => (itemsPerKbAt(perFile, length) * length) / 1000 : null,
    gpuMinutes: (size, gpus, architecture) => {
      const ms = runMs(size, gpus, architecture)
      return ms === null ? null : (ms * gpus) / 60_000
    },
  }
  const pricing: Pricing = { prior, kind: kind ?? '', runMs, why }
  const files: Record<string, FilePrior> = {}
  for (const file of o.files ?? gpuTestFiles()) {
    const outline = fileOutline(file, ctx)
    if (outline && 'skip' in outline) files[file] = { skip: outline.skip }
    else if (missing !== null || !kind) files[file] = { ms: null, runs: 0, unknown: [missing ?? 'no GPU kind'] }
    else if (!outline) files[file] = { ms: null, runs: 0, unknown: [`${suiteName(file)}: no plan kept for it`] }
    else if ('fixed' in outline) {
      const fixed = prior.fixedFiles.find((f) => f.kind === kind && f.file === file)
      files[file] = fixed
        ? { ms: fixed.ms, runs: 0, unknown: [] }
        : { ms: null, runs: 0, unknown: [`${suiteName(file)} (no ${kind} time kept)`] }
    } else files[file] = priced(pricing, file, outline)
  }
  return { kind, missing, files }
}

/**
 * One target run under the GPU monitor: the monitor starts first (baseline memory), stage tags follow the runner's
 * events, the target's process tree is attached for attribution, the runner's NVML hooks are wired, and the monitor
 * keeps sampling a moment after the tree is gone (memory after the run). Never throws for a failed run or a missing
 * monitor: both become data in the observation.
 */
import { mkdir, open } from 'node:fs/promises'
import { join } from 'node:path'
import { readMonitorLog } from '../monitor/log-reader.ts'
import { GpuMonitor } from '../monitor/monitor.ts'
import { openNvml } from '../nvml/session.ts'
import type { BatchEvent, InferenceCompleteEvent, TargetEvent } from '../pipeline/events.ts'
import type { TargetProfile } from '../pipeline/profiles.ts'
import type { GpuMemoryHeld, RunRecord } from '../pipeline/run-record.ts'
import { runTarget } from '../pipeline/runner.ts'
import type { MeasuredRun, StageProgress } from '../results/schema/index.ts'
import { type Configuration, configRecord, slug } from './configuration.ts'
import { type GpuMemoryObservation, gpusUsedFromLog, memoryObservations } from './monitor-series.ts'
import { pruneTensorOutputs } from './prune-outputs.ts'
import { createProgressCollector } from './run-progress.ts'
import { stageItemCounts } from './stage-metrics.ts'
import { workSpansOf } from './work-spans.ts'

export interface MonitorSettings {
  /** Fast-metric poll interval (ms). */
  intervalMs: number
  addonPath?: string
  libraryPath?: string
}

export interface RunRequest {
  profile: TargetProfile
  config: Configuration
  input: string
  /** Where outputs, logs and monitor logs of this run go. */
  workDir: string
  label: string
  warmup: boolean
  /** null: no monitor (the runs' `gpu` is null and the reason says why). */
  monitor: MonitorSettings | null
  timeoutMs?: number
  /** Ends the run (its whole process tree) early: the invocation lost the run to another (measurement-journal.ts). */
  abortSignal?: AbortSignal
}

/** A measured run plus what the suites read beyond the record (kept in `stats`, not in `runs[]`). */
export interface RunObservation {
  measured: MeasuredRun
  /** ESM-2 batch events (per worker where the target has several), runner clock. */
  esm2Batches: BatchEvent[]
  /** `Async inference complete` lines of the ESM-2 stage: when each worker really finished (repeated work logs no batch). */
  esm2Completions: InferenceCompleteEvent[]
  memory: GpuMemoryObservation[]
  /** Why there is no monitor summary; null when there is one. */
  monitorProblem: string | null
  /** Versions the target printed (torch, CUDA). */
  versions: Record<string, string>
}

const ESM2_STAGE = 'ESM-2 Feature Extraction'
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Versions from the target's first log lines (refpipe: `refpipe 0.1.0 (torch 2.5.1): ...`, `CUDA 12.4`). */
async function readVersions(logPath: string | null): Promise<Record<string, string>> {
  if (!logPath) return {}
  const handle = await open(logPath, 'r').catch(() => null)
  if (!handle) return {}
  try {
    const { buffer, bytesRead } = await handle.read({ buffer: Buffer.alloc(64 * 1024), position: 0 })
    const head = buffer.subarray(0, bytesRead).toString('utf8')
    const versions: Record<string, string> = {}
    const torch = /\btorch[ =]v?(\d[\w.+-]*)/i.exec(head)
    const cuda = /\bCUDA[ =]v?(\d[\w.]*)/.exec(head)
    if (torch?.[1]) versions.torch = torch[1]
    if (cuda?.[1]) versions.cuda = cuda[1]
    return versions
  } finally {
    await handle.close()
  }
}

function heldBy(pids: number[]): GpuMemoryHeld[] {
  const opened = openNvml()
  if (!opened.available) throw new Error(`NVML unavailable for the held-memory check: ${opened.reason}`)
  try {
    const wanted = new Set(pids)
    return opened.session
      .listDevices()
      .flatMap((d) =>
        (d.processes() ?? [])
          .filter((p) => wanted.has(p.pid))
          .map((p) => ({ pid: p.pid, memUsedBytes: p.usedGpuMemoryBytes ?? 0, gpu: d.index })),
      )
  } finally {
    opened.session.close()
  }
}

async function startMonitor(request: RunRequest, dir: string) {
  if (!request.monitor) return { monitor: null, problem: 'monitor off for this measurement' }
  const started = await GpuMonitor.start({
    intervalMs: request.monitor.intervalMs,
    addonPath: request.monitor.addonPath,
    libraryPath: request.monitor.libraryPath,
    logPath: join(dir, 'gpu.jsonl'),
  })
  if (started.state !== 'started') return { monitor: null, problem: `monitor unavailable: ${started.reason}` }
  return { monitor: started.monitor, problem: null }
}

/** Runs the target once as `request` says and observes it. */
export async function observeRun(request: RunRequest): Promise<RunObservation> {
  const dir = join(request.workDir, slug(request.label))
  await mkdir(dir, { recursive: true })
  const { monitor, problem } = await startMonitor(request, dir)
  const intervalMs = request.monitor?.intervalMs ?? 0
  const esm2Batches: BatchEvent[] = []
  const esm2Completions: InferenceCompleteEvent[] = []
  const esm2BatchMs: number[] = []
  const progress = createProgressCollector()
  let stage: string | null = null
  const onEvent = (event: TargetEvent) => {
    progress.push(event, stage)
    if (event.type === 'stage-start' || event.type === 'stage-end') {
      stage = event.type === 'stage-start' ? event.name : null
      monitor?.setStage(stage)
    } else if (event.type === 'batch' && stage === ESM2_STAGE) {
      esm2Batches.push(event)
      if (monitor) esm2BatchMs.push(monitor.nowMs())
    } else if (event.type === 'inference-complete' && stage === ESM2_STAGE) {
      esm2Completions.push(event)
    }
  }
  // Two polls before the spawn give the baseline reading; two after the tree is gone give the after reading.
  if (monitor) await sleep(2 * intervalMs + 5)
  const spawnMs = monitor?.nowMs() ?? 0
  const run = await runTarget(request.profile, {
    input: request.input,
    outputDir: join(dir, 'out'),
    logPath: join(dir, 'target.log'),
    gpus: request.config.gpus ?? undefined,
    device: request.config.device,
    modelType: request.config.modelType,
    extraArgs: request.config.extraArgs,
    env: request.config.env,
    // What ran is read from the log and checked against what was asked (issue 56).
    ...(request.config.architecture && { architecture: request.config.architecture }),
    timeoutMs: request.timeoutMs,
    abortSignal: request.abortSignal,
    onEvent,
    onSpawn: monitor ? (tree) => monitor.attachTarget(tree, request.config.gpus) : undefined,
    ...(monitor && {
      gpusUsedBy: (pids) => gpusUsedFromLog(monitor.logPath, pids),
      gpuMemoryHeldBy: async (pids) => heldBy(pids),
    }),
  })
  // Aborted, the folder may be another invocation's by now (it took the run over): nothing of it is touched.
  if (!request.abortSignal?.aborted) await pruneTensorOutputs(join(dir, 'out'))
  const endMs = monitor?.nowMs() ?? 0
  if (monitor) await sleep(2 * intervalMs + 5)
  return finish(request, {
    run,
    monitor,
    problem,
    esm2Batches,
    esm2Completions,
    progress: progress.series(),
    window: { spawnMs, endMs, esm2BatchMs },
  })
}

async function finish(
  request: RunRequest,
  o: {
    run: RunRecord
    monitor: GpuMonitor | null
    problem: string | null
    esm2Batches: BatchEvent[]
    esm2Completions: InferenceCompleteEvent[]
    progress: StageProgress[]
    window: { spawnMs: number; endMs: number; esm2BatchMs: number[] }
  },
): Promise<RunObservation> {
  const sequenceCount = o.run.summary?.sequencesProcessed ?? null
  const stopped = o.monitor
    ? await o.monitor.stop({
        sequenceCount,
        stageSequenceCounts: stageItemCounts(o.run),
        workSpans: workSpansOf(o.progress, o.run),
      })
    : null
  let problem = o.problem
  if (stopped?.state === 'failed') problem = `monitor failed: ${stopped.error}`
  const records = stopped
    ? await readMonitorLog(stopped.logPath).then(
        (log) => log.records,
        () => [],
      )
    : []
  return {
    measured: {
      label: request.label,
      config: configRecord(request.config),
      warmup: request.warmup,
      run: o.run,
      gpu: stopped?.summary ?? null,
      progress: o.progress,
    },
    esm2Batches: o.esm2Batches,
    esm2Completions: o.esm2Completions,
    memory: memoryObservations(records, o.window),
    monitorProblem: problem,
    versions: await readVersions(o.run.logPath),
  }
}

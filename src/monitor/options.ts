/** Monitor options, their defaults and their checks. Times in milliseconds. */

export interface SamplerOptions {
  /** Poll interval of the fast metrics. Default 100; 10 works. */
  intervalMs: number
  /** NVML indices to sample every tick; null: every GPU. Process lists are read on every GPU regardless. */
  gpus: number[] | null
  /** Each GPU's energy counter is read this often (staggered across GPUs), at start, at stop and at stage changes. */
  energyIntervalMs: number
  /** Compute-process lists of every GPU, this often. */
  processIntervalMs: number
  /** The driver's buffered utilization samples, this often. */
  driverSamplesIntervalMs: number
  /** GPM pairs at least this far apart (NVML wants > 100 ms). */
  gpmMinIntervalMs: number
  /**
   * Host memory of an attached target's processes, this often (read by the main thread, not the sampling worker:
   * host-memory.ts). Memory moves slowly next to utilization; 1 s misses only a peak shorter than that.
   */
  hostMemoryIntervalMs: number
}

export const DEFAULT_SAMPLER_OPTIONS: SamplerOptions = {
  intervalMs: 100,
  gpus: null,
  energyIntervalMs: 1_000,
  processIntervalMs: 500,
  driverSamplesIntervalMs: 1_000,
  gpmMinIntervalMs: 100,
  hostMemoryIntervalMs: 1_000,
}

export const MIN_INTERVAL_MS = 1
export const MIN_GPM_INTERVAL_MS = 100

export class MonitorOptionError extends Error {
  override readonly name = 'MonitorOptionError'
  readonly option: string

  constructor(option: string, message: string) {
    super(`monitor option ${option}: ${message}`)
    this.option = option
  }
}

/**
 * Fills defaults and checks every value.
 * @throws MonitorOptionError naming the option and the bad value.
 */
export function resolveSamplerOptions(partial: Partial<SamplerOptions> = {}): SamplerOptions {
  const options = { ...DEFAULT_SAMPLER_OPTIONS, ...stripUndefined(partial) }
  const intervals = [
    'intervalMs',
    'energyIntervalMs',
    'processIntervalMs',
    'driverSamplesIntervalMs',
    'hostMemoryIntervalMs',
  ] as const
  for (const name of intervals) {
    const value = options[name]
    if (!Number.isFinite(value) || value < MIN_INTERVAL_MS)
      throw new MonitorOptionError(name, `must be a number >= ${MIN_INTERVAL_MS}, got ${value}`)
  }
  if (!Number.isFinite(options.gpmMinIntervalMs) || options.gpmMinIntervalMs < MIN_GPM_INTERVAL_MS)
    throw new MonitorOptionError(
      'gpmMinIntervalMs',
      `must be >= ${MIN_GPM_INTERVAL_MS} (NVML GPM pairs), got ${options.gpmMinIntervalMs}`,
    )
  if (options.gpus !== null) {
    const bad = options.gpus.find((gpu) => !Number.isSafeInteger(gpu) || gpu < 0)
    if (bad !== undefined) throw new MonitorOptionError('gpus', `must be GPU indices >= 0, got ${bad}`)
    if (new Set(options.gpus).size !== options.gpus.length)
      throw new MonitorOptionError('gpus', `lists a GPU twice: ${options.gpus.join(',')}`)
  }
  return options
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}

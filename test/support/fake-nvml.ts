/**
 * The fake libnvidia-ml (test/fixtures/fake-nvml/*.c) for tests and benches on machines without a GPU: compiled with
 * `cc` on first use into a cache directory keyed by a hash of its sources and flags, then scripted through a
 * key=value file that the fake reads at its first nvmlInit_v2 (FAKE_NVML_SCRIPT). The real addon loads it through
 * VIRNUCPRO_BENCH_NVML_LIB or the `libraryPath` option.
 *
 *   const fake = createFakeNvml({ devices: [{ name: 'NVIDIA H200', powerMw: [100_000, 120_000] }] })
 *   fake.activate()                // sets FAKE_NVML_SCRIPT / FAKE_NVML_STATS / VIRNUCPRO_BENCH_NVML_LIB here
 *   const nvml = openNvml()        // or child processes with { env: { ...process.env, ...fake.env } }
 *   fake.stats()                   // refCount, liveGpmSamples, calls per function (rewritten at init/shutdown)
 *   fake.remove()                  // deletes its script directory, once nothing will init on it again
 *
 * The compiled library stays in its cache directory for later runs; the script and stats files are per fake, in a
 * temp directory that its owner removes (`remove()`, or `using fake = createFakeNvml(...)`).
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const SOURCE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'fake-nvml')

/** Symbol groups an older driver lacks; omitting one makes dlsym fail for those names, as it would there. */
export type FakeSymbolGroup = 'MEMORY_V2' | 'CLOCKS_EVENT' | 'PROCESSES_V3' | 'GPM' | 'SAMPLES'

/** A scripted value; a list advances one element per read and wraps around. */
export type Scripted<T extends number | bigint = number> = T | readonly T[]

export interface FakeProcess {
  pid: number
  usedGpuMemoryBytes: number | bigint
  gpuInstanceId?: number
  computeInstanceId?: number
}

export interface FakeDevice {
  name?: string
  uuid?: string
  busId?: string
  pci?: { domain: number; bus: number; device: number; pciDeviceId: number; pciSubSystemId: number }
  memTotalBytes?: number | bigint
  memReservedBytes?: number | bigint
  memUsedBytes?: Scripted<number | bigint>
  utilGpuPct?: Scripted
  utilMemoryPct?: Scripted
  temperatureC?: Scripted
  powerMw?: Scripted
  powerLimitMw?: Scripted
  energyMj?: Scripted<number | bigint>
  clockGraphicsMhz?: Scripted
  clockSmMhz?: Scripted
  clockMemMhz?: Scripted
  clockEventReasons?: Scripted<number | bigint>
  samplesGpu?: readonly { timeStampUs: number; valuePct: number }[]
  samplesMemory?: readonly { timeStampUs: number; valuePct: number }[]
  processes?: readonly FakeProcess[]
  gpmSupported?: boolean
  /** GPM values by metric id (NVML ids, e.g. 2 = SM util); ids left out answer NOT_SUPPORTED. */
  gpm?: Readonly<Record<number, Scripted>>
  /** Return codes to answer instead, by exact NVML function name. */
  fail?: Readonly<Record<string, number>>
  /** Device calls answered normally before every call on it returns NVML_ERROR_GPU_IS_LOST. */
  lostAfterCalls?: number
  /**
   * The energy counter as a driver keeps one: `energyMj`'s first value plus `powerMw`'s first value integrated over
   * the time since the script was loaded, so it only grows and a run's energy is power x its duration. Without it a
   * list steps per read and wraps, and a run whose reads come round to the same element reads 0 J.
   */
  energyFromPower?: boolean
}

export interface FakeNvmlScript {
  /** nvmlInit_v2's return code (9 = driver not loaded). */
  initReturn?: number
  driverVersion?: string
  nvmlVersion?: string
  devices: readonly FakeDevice[]
}

export interface FakeNvmlStats {
  refCount: number
  liveGpmSamples: number
  calls: Record<string, number>
}

const SEQUENCE_KEYS: ReadonlyArray<[keyof FakeDevice, string]> = [
  ['memUsedBytes', 'memUsed'],
  ['utilGpuPct', 'utilGpu'],
  ['utilMemoryPct', 'utilMemory'],
  ['temperatureC', 'temperature'],
  ['powerMw', 'power'],
  ['powerLimitMw', 'powerLimit'],
  ['energyMj', 'energy'],
  ['clockGraphicsMhz', 'clockGraphics'],
  ['clockSmMhz', 'clockSm'],
  ['clockMemMhz', 'clockMem'],
  ['clockEventReasons', 'reasons'],
]

function sequence(value: Scripted<number | bigint>): string {
  const values = Array.isArray(value) ? value : [value]
  if (values.length === 0) throw new Error('fake-nvml script: a scripted value needs at least one element')
  return values.map((item) => String(item)).join(',')
}

function text(key: string, value: string): string {
  if (/[\n\r]/.test(value)) throw new Error(`fake-nvml script: ${key} must be one line, got ${JSON.stringify(value)}`)
  return `${key}=${value}`
}

function deviceLines(device: FakeDevice, index: number): string[] {
  const prefix = `d${index}.`
  const lines: string[] = []
  if (device.name !== undefined) lines.push(text(`${prefix}name`, device.name))
  if (device.uuid !== undefined) lines.push(text(`${prefix}uuid`, device.uuid))
  if (device.busId !== undefined) lines.push(text(`${prefix}busId`, device.busId))
  const pci = device.pci
  if (pci)
    lines.push(`${prefix}pci=${[pci.domain, pci.bus, pci.device, pci.pciDeviceId, pci.pciSubSystemId].join(',')}`)
  if (device.memTotalBytes !== undefined) lines.push(`${prefix}memTotal=${device.memTotalBytes}`)
  if (device.memReservedBytes !== undefined) lines.push(`${prefix}memReserved=${device.memReservedBytes}`)
  for (const [field, key] of SEQUENCE_KEYS) {
    const value = device[field] as Scripted<number | bigint> | undefined
    if (value !== undefined) lines.push(`${prefix}${key}=${sequence(value)}`)
  }
  const samples = (list: FakeDevice['samplesGpu']) =>
    (list ?? []).map((s) => `${s.timeStampUs}:${s.valuePct}`).join(',')
  if (device.samplesGpu) lines.push(`${prefix}samplesGpu=${samples(device.samplesGpu)}`)
  if (device.samplesMemory) lines.push(`${prefix}samplesMemory=${samples(device.samplesMemory)}`)
  if (device.processes) {
    const entries = device.processes.map(
      (p) => `${p.pid}:${p.usedGpuMemoryBytes}:${p.gpuInstanceId ?? 0}:${p.computeInstanceId ?? 0}`,
    )
    lines.push(`${prefix}processes=${entries.join(',')}`)
  }
  if (device.gpmSupported !== undefined) lines.push(`${prefix}gpmSupported=${device.gpmSupported ? 1 : 0}`)
  for (const [id, value] of Object.entries(device.gpm ?? {})) lines.push(`${prefix}gpm.${id}=${sequence(value)}`)
  for (const [name, code] of Object.entries(device.fail ?? {})) lines.push(`${prefix}fail.${name}=${code}`)
  if (device.lostAfterCalls !== undefined) lines.push(`${prefix}lostAfterCalls=${device.lostAfterCalls}`)
  if (device.energyFromPower !== undefined) lines.push(`${prefix}energyFromPower=${device.energyFromPower ? 1 : 0}`)
  return lines
}

/** The script file's text for `script` (the format fake_script.c parses). */
export function serializeFakeScript(script: FakeNvmlScript): string {
  const lines = [`devices=${script.devices.length}`]
  if (script.initReturn !== undefined) lines.push(`init=${script.initReturn}`)
  if (script.driverVersion !== undefined) lines.push(text('driver', script.driverVersion))
  if (script.nvmlVersion !== undefined) lines.push(text('nvml', script.nvmlVersion))
  script.devices.forEach((device, index) => {
    lines.push(...deviceLines(device, index))
  })
  return `${lines.join('\n')}\n`
}

/** Parses the stats file the fake rewrites at every nvmlInit_v2 / nvmlShutdown. */
export function parseFakeStats(content: string): FakeNvmlStats {
  const stats: FakeNvmlStats = { refCount: Number.NaN, liveGpmSamples: Number.NaN, calls: {} }
  for (const line of content.split('\n')) {
    const [key, value] = line.split('=')
    if (!key || value === undefined) continue
    if (key === 'refCount') stats.refCount = Number(value)
    else if (key === 'liveGpmSamples') stats.liveGpmSamples = Number(value)
    else if (key.startsWith('calls.')) stats.calls[key.slice('calls.'.length)] = Number(value)
  }
  return stats
}

/**
 * Compiles the fake (once per distinct source and flag set) and returns the library path. Concurrent callers are
 * safe: each compiles to a private name and renames into place.
 * @throws Error with cc's output when compiling fails.
 */
export function buildFakeNvml(options: { omit?: readonly FakeSymbolGroup[] } = {}): string {
  const sources = readdirSync(SOURCE_DIR)
    .filter((name) => name.endsWith('.c') || name.endsWith('.h'))
    .sort()
  const flags = [...new Set(options.omit ?? [])].sort().map((group) => `-DFAKE_OMIT_${group}`)
  const hash = createHash('sha256').update(flags.join(' '))
  for (const name of sources) hash.update(name).update(readFileSync(path.join(SOURCE_DIR, name)))
  const dir = path.join(os.tmpdir(), 'virnucpro-fake-nvml', hash.digest('hex').slice(0, 16))
  const library = path.join(dir, 'libnvidia-ml.so.1')
  if (existsSync(library)) return library
  mkdirSync(dir, { recursive: true })
  const partial = path.join(dir, `.build-${process.pid}-${Date.now()}.so`)
  const cFiles = sources.filter((name) => name.endsWith('.c')).map((name) => path.join(SOURCE_DIR, name))
  try {
    execFileSync('cc', ['-O2', '-Wall', '-shared', '-fPIC', ...flags, '-o', partial, ...cFiles, '-lpthread'], {
      stdio: 'pipe',
    })
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? ''
    throw new Error(`fake-nvml: cc failed for ${SOURCE_DIR} ${flags.join(' ')}\n${stderr}`, { cause: error })
  }
  renameSync(partial, library)
  return library
}

export interface FakeNvml extends Disposable {
  libraryPath: string
  scriptPath: string
  statsPath: string
  /** FAKE_NVML_SCRIPT, FAKE_NVML_STATS and VIRNUCPRO_BENCH_NVML_LIB for this fake (for child processes). */
  env: Record<string, string>
  /** Rewrites the script; the fake reads it at its next first nvmlInit_v2 (after every session has shut down). */
  setScript(script: FakeNvmlScript): void
  /** Sets `env` in this process, where the fake (and load.ts) will read it. */
  activate(): void
  /** The counters as of the last nvmlInit_v2 / nvmlShutdown. @throws Error before the first of those. */
  stats(): FakeNvmlStats
  /**
   * Deletes the script and stats files with their temp directory (idempotent; also `[Symbol.dispose]`). Call it after
   * the last session on this fake has shut down: a later first nvmlInit_v2 could not read the script.
   */
  remove(): void
}

/** A fake with its own script and stats files in a fresh temp directory, which the caller removes (`remove()`). */
export function createFakeNvml(script: FakeNvmlScript, options: { omit?: readonly FakeSymbolGroup[] } = {}): FakeNvml {
  const libraryPath = buildFakeNvml(options)
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fake-nvml-script-'))
  const scriptPath = path.join(dir, 'script.txt')
  const statsPath = path.join(dir, 'stats.txt')
  const env = { FAKE_NVML_SCRIPT: scriptPath, FAKE_NVML_STATS: statsPath, VIRNUCPRO_BENCH_NVML_LIB: libraryPath }
  const fake: FakeNvml = {
    libraryPath,
    scriptPath,
    statsPath,
    env,
    setScript: (next) => writeFileSync(scriptPath, serializeFakeScript(next)),
    activate: () => Object.assign(process.env, env),
    stats: () => parseFakeStats(readFileSync(statsPath, 'utf8')),
    remove: () => rmSync(dir, { recursive: true, force: true }),
    [Symbol.dispose]: () => fake.remove(),
  }
  fake.setScript(script)
  return fake
}

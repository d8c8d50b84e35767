/**
 * The only module that loads the NVML addon (native/nvml, built to build/Release/nvml.node by native/nvml/build.ts)
 * and points it at a libnvidia-ml.
 *
 * Addon search order (first that exists wins; an explicit choice that fails to load is reported, never skipped):
 *   1. `options.addonPath`
 *   2. env `VIRNUCPRO_BENCH_NVML_ADDON`
 *   3. `<repo>/build/Release/nvml.node`
 *   4. `<repo>/build/Debug/nvml.node`
 * Library: `options.libraryPath`, else env `VIRNUCPRO_BENCH_NVML_LIB`, else `libnvidia-ml.so.1` through the normal
 * dlopen search (LD_LIBRARY_PATH, ld.so.cache; /usr/local/nvidia/lib64 and /lib on the GPU machine).
 * A missing addon or library is a value (`NvmlUnavailable`) naming what was tried, never an exception.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { NvmlNative } from './binding.ts'

export const ADDON_ENV = 'VIRNUCPRO_BENCH_NVML_ADDON'
export const LIBRARY_ENV = 'VIRNUCPRO_BENCH_NVML_LIB'
export const DEFAULT_LIBRARY = 'libnvidia-ml.so.1'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const requireAddon = createRequire(import.meta.url)
const addonsByPath = new Map<string, NvmlNative>()

export interface NvmlLoadOptions {
  /** The nvml.node to load, ahead of every other place. */
  addonPath?: string
  /** The libnvidia-ml to dlopen, ahead of VIRNUCPRO_BENCH_NVML_LIB. */
  libraryPath?: string
  /** Environment to read the overrides from; process.env by default. */
  env?: NodeJS.ProcessEnv
}

/** Why NVML cannot be used here; callers skip GPU work with `reason`. */
export interface NvmlUnavailable {
  available: false
  reason: string
}

export interface NvmlLoaded {
  available: true
  native: NvmlNative
  addonPath: string
  libraryPath: string
  /** Which NVML symbols this libnvidia-ml exports, by their exact (versioned) names. */
  symbols: Readonly<Record<string, boolean>>
}

type Candidate = { path: string; source: string; explicit: boolean }

/** The addon paths tried, in order, with where each came from. */
export function addonCandidates(options: NvmlLoadOptions = {}): Candidate[] {
  const env = options.env ?? process.env
  const candidates: Candidate[] = []
  if (options.addonPath)
    candidates.push({ path: path.resolve(options.addonPath), source: 'option addonPath', explicit: true })
  const fromEnv = env[ADDON_ENV]
  if (fromEnv) candidates.push({ path: path.resolve(fromEnv), source: ADDON_ENV, explicit: true })
  for (const config of ['Release', 'Debug']) {
    candidates.push({
      path: path.join(repoRoot, 'build', config, 'nvml.node'),
      source: `build/${config}`,
      explicit: false,
    })
  }
  return candidates
}

/** The library to dlopen and where that choice came from. */
export function libraryChoice(options: NvmlLoadOptions = {}): { path: string; source: string } {
  const env = options.env ?? process.env
  if (options.libraryPath) return { path: options.libraryPath, source: 'option libraryPath' }
  const fromEnv = env[LIBRARY_ENV]
  if (fromEnv) return { path: fromEnv, source: LIBRARY_ENV }
  return { path: DEFAULT_LIBRARY, source: 'default dlopen search' }
}

function requireNative(addonPath: string): NvmlNative {
  let native = addonsByPath.get(addonPath)
  if (!native) {
    native = requireAddon(addonPath) as NvmlNative
    addonsByPath.set(addonPath, native)
  }
  return native
}

/** Loads the addon along the search order. */
export function loadAddon(options: NvmlLoadOptions = {}): { native: NvmlNative; addonPath: string } | NvmlUnavailable {
  const candidates = addonCandidates(options)
  for (const candidate of candidates) {
    if (!candidate.explicit && !existsSync(candidate.path)) continue
    try {
      return { native: requireNative(candidate.path), addonPath: candidate.path }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      return {
        available: false,
        reason: `addon not loadable: ${candidate.path} (from ${candidate.source}): ${message}`,
      }
    }
  }
  const tried = candidates.map((candidate) => candidate.path).join(', ')
  return { available: false, reason: `addon not built: no nvml.node at ${tried} (build it: node native/nvml/build.ts)` }
}

/** Loads the addon and dlopens libnvidia-ml. Does not call nvmlInit (see session.ts). Never throws. */
export function loadNvml(options: NvmlLoadOptions = {}): NvmlLoaded | NvmlUnavailable {
  const addon = loadAddon(options)
  if ('available' in addon) return addon
  const library = libraryChoice(options)
  const opened = addon.native.openLibrary(library.path)
  if (!opened.loaded) {
    return { available: false, reason: `${library.path} not found (from ${library.source}; dlopen: ${opened.error})` }
  }
  const { $path: _path, ...symbols } = addon.native.librarySymbols() ?? { $path: '' }
  return { available: true, native: addon.native, addonPath: addon.addonPath, libraryPath: library.path, symbols }
}

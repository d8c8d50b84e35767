import type { ProbedDevice } from '../nvml/probe.ts'

/** What `virnucpro-bench doctor` found on this machine: plain data, rendered by render.ts or printed as JSON. */
export interface DoctorReport {
  node: { version: string; meetsEngines: boolean; required: string }
  nvml:
    | {
        found: true
        libraryPath: string
        driverVersion: string
        nvmlVersion: string
        gpus: ProbedDevice[]
      }
    | { found: false; reason: string }
  python: PythonFinding
  /** Whether the `virnucpro` target's CLI module imports as that profile runs it (python-check.ts), and why not. */
  virnucpro: { importable: boolean; detail: string; dir: string | null; python: string | null }
  target: string
  settings: SettingsFinding
}

/**
 * The `VIRNUCPRO_BENCH_*` settings as the gpu project would take them (src/config/check.ts): the names set, one line
 * per problem, and the input when one is set and reads clean.
 */
export interface SettingsFinding {
  set: string[]
  problems: string[]
  /** What a setting does not do, where a person may expect it to (thresholds.ts thresholdsScopeNote). */
  notes: string[]
  input: { path: string; files: number; records: number } | null
}

export type PythonFinding =
  | {
      found: true
      executable: string
      version: string
      torchVersion: string
      cudaAvailable: boolean
      cudaDeviceCount: number
    }
  | { found: false; reason: string }

/** What each part of the suite can do here, derived from the findings (so the rendered verdicts never disagree with them). */
export function capabilities(report: DoctorReport) {
  const gpus = report.nvml.found ? report.nvml.gpus.length : 0
  return {
    unitTests: report.node.meetsEngines,
    gpuProject: report.node.meetsEngines && gpus > 0 && report.settings.problems.length === 0,
    referencePipelineCpu: report.python.found,
    referencePipelineGpu: report.python.found && report.python.cudaAvailable && gpus > 0,
    realVirnucpro: report.virnucpro.importable && gpus > 0,
  }
}

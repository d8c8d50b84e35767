import { spawnSync } from 'node:child_process'
import { execa, type Result } from 'execa'
import { virnucproProfile } from '../pipeline/profiles.ts'
import { findTorchPython } from '../platform/python.ts'
import { explainProbeFailure, type ProbeExit } from './probe-failure.ts'
import type { DoctorReport, PythonFinding } from './report.ts'

const PROBE_TIMEOUT_MS = 60_000
/** What `python -m virnucpro` imports before it does anything (virnucpro/__main__.py); docs/UPSTREAM.md. */
export const VIRNUCPRO_CLI_MODULE = 'virnucpro.cli.main'
const TORCH_DETAILS =
  'import json, platform, torch; print(json.dumps({"version": platform.python_version(), "torch": torch.__version__,' +
  ' "cuda": torch.cuda.is_available(), "devices": torch.cuda.device_count() if torch.cuda.is_available() else 0}))'

/** The python the reference pipeline would use (src/platform/python.ts decides which), with its torch and CUDA. */
export function checkPython(env: NodeJS.ProcessEnv = process.env): PythonFinding {
  const found = findTorchPython(env)
  if (found.state === 'missing') return { found: false, reason: found.reason }
  const result = spawnSync(found.executable, ['-c', TORCH_DETAILS], { encoding: 'utf8', timeout: PROBE_TIMEOUT_MS })
  if (result.status !== 0) {
    const why = explainProbeFailure(
      {
        exitCode: result.status,
        stderr: result.stderr ?? '',
        timedOut: (result.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT',
        spawnError: result.error?.message,
      },
      PROBE_TIMEOUT_MS,
    )
    return { found: false, reason: `${found.executable} imports torch but could not report on it: ${why}` }
  }
  const details = JSON.parse(result.stdout) as { version: string; torch: string; cuda: boolean; devices: number }
  return {
    found: true,
    executable: found.executable,
    version: details.version,
    torchVersion: details.torch,
    cudaAvailable: details.cuda,
    cudaDeviceCount: details.devices,
  }
}

/**
 * Whether the real VirNucPro can start here: imports its CLI module the way the `virnucpro` target profile runs it (its
 * python, its checkout as the working directory, its environment), bounded in time. Importing only the package passed
 * on checkouts whose every run then died at import (a biopython without `Bio.Align._aligncore`).
 */
export async function checkVirnucpro(
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<DoctorReport['virnucpro']> {
  const dir = env.VIRNUCPRO_DIR?.trim() || null
  const resolved = await virnucproProfile.launcher(env)
  if (resolved.state === 'unavailable') {
    const hint = dir ? '' : ' (set VIRNUCPRO_DIR to its checkout and VIRNUCPRO_PYTHON to its python)'
    return { importable: false, detail: `${resolved.reason}${hint}`, dir, python: null }
  }
  const { file, cwd, env: extra } = resolved.launcher
  const script = `import ${VIRNUCPRO_CLI_MODULE}, os, virnucpro; print(os.path.dirname(virnucpro.__file__))`
  const result = await execa(file, ['-c', script], {
    cwd,
    env: { ...env, ...extra },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: timeoutMs,
  })
  if (result.exitCode === 0 && !result.timedOut)
    return {
      importable: true,
      detail: `${file}: ${VIRNUCPRO_CLI_MODULE} imports from ${result.stdout.trim()}`,
      dir,
      python: file,
    }
  const why = explainProbeFailure(probeExitOf(result, file), timeoutMs)
  return { importable: false, detail: `${file}: import ${VIRNUCPRO_CLI_MODULE} failed: ${why}`, dir, python: file }
}

/** An execa result as explainProbeFailure reads it; a python that is not there is named. */
function probeExitOf(result: Result, file: string): ProbeExit {
  const notStarted = result.exitCode === undefined && !result.timedOut
  return {
    exitCode: result.exitCode ?? null,
    stderr: String(result.stderr),
    timedOut: result.timedOut,
    spawnError:
      result.code === 'ENOENT' ? `python not found: '${file}'` : notStarted ? result.originalMessage : undefined,
  }
}

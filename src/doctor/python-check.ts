import { spawnSync } from 'node:child_process'
import { findTorchPython } from '../platform/python.ts'
import type { DoctorReport, PythonFinding } from './report.ts'

const PROBE_TIMEOUT_MS = 60_000
const TORCH_DETAILS =
  'import json, platform, torch; print(json.dumps({"version": platform.python_version(), "torch": torch.__version__,' +
  ' "cuda": torch.cuda.is_available(), "devices": torch.cuda.device_count() if torch.cuda.is_available() else 0}))'

/** The python the reference pipeline would use (src/platform/python.ts decides which), with its torch and CUDA. */
export function checkPython(env: NodeJS.ProcessEnv = process.env): PythonFinding {
  const found = findTorchPython(env)
  if (found.state === 'missing') return { found: false, reason: found.reason }
  const result = spawnSync(found.executable, ['-c', TORCH_DETAILS], { encoding: 'utf8', timeout: PROBE_TIMEOUT_MS })
  if (result.status !== 0) {
    const why = result.error?.message ?? result.stderr.trim().split('\n').at(-1) ?? `exit ${result.status}`
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
 * Whether the real VirNucPro imports, the way the `virnucpro` target profile would run it: its python
 * (VIRNUCPRO_PYTHON, else the torch python, else python3) in its checkout (VIRNUCPRO_DIR).
 */
export function checkVirnucpro(python: PythonFinding, env: NodeJS.ProcessEnv = process.env): DoctorReport['virnucpro'] {
  const dir = env.VIRNUCPRO_DIR?.trim() || null
  const executable = env.VIRNUCPRO_PYTHON?.trim() || (python.found ? python.executable : 'python3')
  const result = spawnSync(executable, ['-c', 'import virnucpro, os; print(os.path.dirname(virnucpro.__file__))'], {
    encoding: 'utf8',
    timeout: PROBE_TIMEOUT_MS,
    cwd: dir ?? undefined,
    env: dir ? { ...env, PYTHONPATH: [dir, env.PYTHONPATH].filter(Boolean).join(':') } : env,
  })
  if (result.status === 0)
    return { importable: true, detail: `${executable}: ${result.stdout.trim()}`, dir, python: executable }
  const why = result.error?.message ?? result.stderr.trim().split('\n').at(-1) ?? `exit ${result.status}`
  const hint = dir ? '' : ' (set VIRNUCPRO_DIR to its checkout and VIRNUCPRO_PYTHON to its python)'
  return { importable: false, detail: `${executable}: ${why}${hint}`, dir, python: executable }
}

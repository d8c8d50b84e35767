import { execa } from 'execa'

/** Whether a target can run here; `reason` says exactly why not, so GPU suites can skip with it. */
export type Preflight = { state: 'ready'; python: string; detail: string } | { state: 'unavailable'; reason: string }

export interface PythonProbe {
  python: string
  module: string
  cwd?: string
  env?: Record<string, string>
  /** GPUs the run needs; > 0 also imports torch and counts CUDA devices (slow: seconds). */
  gpusNeeded: number
}

// One interpreter start answers every question: its version, whether the module is importable, and the GPU count.
const PROBE = `import json, sys, importlib.util
r = {"version": sys.version.split()[0], "module": importlib.util.find_spec(sys.argv[1]) is not None}
if int(sys.argv[2]) > 0:
    try:
        import torch
        r["torch"] = torch.__version__; r["gpus"] = torch.cuda.device_count()
    except Exception as e:
        r["torchError"] = f"{type(e).__name__}: {e}"
print(json.dumps(r))`

interface ProbeOutput {
  version: string
  module: boolean
  torch?: string
  gpus?: number
  torchError?: string
}

const PROBE_TIMEOUT_MS = 60_000

/** Runs the probe with `python`; never throws: every failure becomes an `unavailable` reason. */
export async function probePython(probe: PythonProbe): Promise<Preflight> {
  const result = await execa(probe.python, ['-c', PROBE, probe.module, String(probe.gpusNeeded)], {
    cwd: probe.cwd,
    env: probe.env,
    reject: false,
    stdin: 'ignore',
    timeout: PROBE_TIMEOUT_MS,
  })
  if (result.failed && result.code === 'ENOENT')
    return { state: 'unavailable', reason: `python not found: '${probe.python}'` }
  if (result.exitCode !== 0 || result.timedOut) {
    const why = result.timedOut ? `timed out after ${PROBE_TIMEOUT_MS} ms` : result.stderr.split('\n').at(-1)
    return { state: 'unavailable', reason: `python '${probe.python}' cannot run the probe: ${why}` }
  }
  let out: ProbeOutput
  try {
    out = JSON.parse(result.stdout) as ProbeOutput
  } catch (error) {
    return {
      state: 'unavailable',
      reason: `python '${probe.python}' printed no probe result: ${(error as Error).message}`,
    }
  }
  const where = probe.cwd ? ` (cwd ${probe.cwd})` : ''
  if (!out.module)
    return { state: 'unavailable', reason: `module '${probe.module}' is not importable by '${probe.python}'${where}` }
  if (probe.gpusNeeded > 0 && out.torch === undefined)
    return { state: 'unavailable', reason: `torch cannot be imported by '${probe.python}': ${out.torchError}` }
  if (probe.gpusNeeded > (out.gpus ?? 0))
    return { state: 'unavailable', reason: `no GPU: ${probe.gpusNeeded} needed, torch sees ${out.gpus ?? 0}` }
  const torch = out.torch ? `, torch ${out.torch}, ${out.gpus} GPU(s)` : ''
  return { state: 'ready', python: probe.python, detail: `python ${out.version}${torch}, ${probe.module} importable` }
}

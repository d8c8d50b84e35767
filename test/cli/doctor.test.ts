import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, test } from 'vitest'
import { findTorchPython } from '../../src/platform/python.ts'
import { makeFakeCheckout } from '../doctor/support/fake-virnucpro.ts'
import { createFakeNvml } from '../support/fake-nvml.ts'
import { toolProblem } from '../support/optional-tools.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

// The real CLI as a real process: what a newcomer runs first on a machine.
const doctor = (env: Record<string, string>, ...args: string[]) =>
  execa('node', ['src/cli.ts', 'doctor', ...args], { env, reject: false, timeout: 60_000 })

describe('virnucpro-bench doctor', () => {
  test('without a driver: exit 0, says NVML was not found and why, and that the gpu project skips', async () => {
    const result = await doctor({ VIRNUCPRO_BENCH_NVML_LIB: '/nonexistent/libnvidia-ml.so.1' })
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toMatch(/^nvml\s+not found: .*\/nonexistent\/libnvidia-ml\.so\.1/m)
    expect(result.stdout).toMatch(/^\s+gpu project\s+no$/m)
    expect(result.stdout).toMatch(/^node\s+\d+\.\d+\.\d+ \(needs >=22\.18: ok\)$/m)
  })

  test('with a driver (the fake libnvidia-ml): lists each GPU with memory and GPM support', async () => {
    using fake = createFakeNvml({
      driverVersion: '580.159.04',
      devices: [
        { name: 'NVIDIA H200', memTotalBytes: 150_754_820_096, gpmSupported: true },
        { name: 'NVIDIA A10', memTotalBytes: 24_146_608_128, gpmSupported: false },
      ],
    })
    const result = await doctor(fake.env)
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toMatch(/^driver\s+580\.159\.04 /m)
    expect(result.stdout).toMatch(/^gpus\s+2$/m)
    expect(result.stdout).toMatch(/\[0\] NVIDIA H200, 140\.4 GiB, GPM yes/)
    expect(result.stdout).toMatch(/\[1\] NVIDIA A10, 22\.5 GiB, GPM no/)
    expect(result.stdout).toMatch(/^\s+gpu project\s+yes$/m)
  })

  test('--json gives the same findings as data', async () => {
    const result = await doctor({ VIRNUCPRO_BENCH_NVML_LIB: '/nonexistent/libnvidia-ml.so.1' }, '--json')
    const report = JSON.parse(result.stdout)
    expect(report.nvml.found).toBe(false)
    expect(report.node.meetsEngines).toBe(true)
    expect(report.target).toBe('reference')
  })

  test('a bad setting is a failed check: the report on stdout, one line naming it and the fix on stderr, exit 1', async () => {
    const result = await doctor({
      VIRNUCPRO_BENCH_NVML_LIB: '/nonexistent/libnvidia-ml.so.1',
      VIRNUCPRO_BENCH_RUN: '5',
    })
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toMatch(/^settings\s+1 BAD .*; each named on stderr$/m)
    expect(result.stdout).toMatch(/^\s+gpu project\s+no$/m)
    expect(result.stderr).toBe(
      'virnucpro-bench: VIRNUCPRO_BENCH_RUN: not a setting virnucpro-bench reads (did you mean VIRNUCPRO_BENCH_RUNS?); rename it to VIRNUCPRO_BENCH_RUNS',
    )
  })

  test('a bad option is a usage error: one line naming it, exit 2', async () => {
    const result = await doctor({}, '--bogus')
    expect(result.exitCode).toBe(2)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(result.stderr).toContain("'--bogus'")
  })
})

describe('doctor on a VirNucPro checkout (VIRNUCPRO_DIR, VIRNUCPRO_PYTHON) with one GPU', () => {
  const oneGpu = { driverVersion: '580.159.04', devices: [{ name: 'NVIDIA H200', memTotalBytes: 150_754_820_096 }] }
  const virnucpro = (dir: string) => ({ VIRNUCPRO_DIR: dir, VIRNUCPRO_PYTHON: 'python3' })

  test('whose CLI fails at import: says the ImportError, and that real VirNucPro cannot run', async () => {
    using fake = createFakeNvml(oneGpu)
    const result = await doctor({ ...fake.env, ...virnucpro(makeFakeCheckout('biopython-mismatch')) })
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toMatch(
      /^virnucpro\s+cannot start: python3: import virnucpro\.cli\.main failed: ImportError: cannot import name '_aligncore' from 'Bio\.Align'/m,
    )
    expect(result.stdout).toMatch(/^\s+real VirNucPro on GPU\s+no$/m)
  })

  test('whose CLI imports: ready, and real VirNucPro can run', async () => {
    using fake = createFakeNvml(oneGpu)
    const dir = makeFakeCheckout('clean')
    const result = await doctor({ ...fake.env, ...virnucpro(dir) })
    expect(result.stdout).toContain(`virnucpro  ready: python3: virnucpro.cli.main imports from ${dir}/virnucpro`)
    expect(result.stdout).toMatch(/^\s+real VirNucPro on GPU\s+yes$/m)
  })
})

// A python whose torch imports (so it is the one found) but cannot report on CUDA, and which, as real ones do, prints
// more on stderr after the traceback while it shuts down: the reason must be the exception line.
const torchPython = findTorchPython()
test.skipIf(toolProblem('torch', torchPython.state === 'found' ? null : torchPython.reason) !== null)(
  'a torch that fails its probe: the reason is the exception line, not what stderr ended with',
  async () => {
    const dir = tempDirUntilFileEnd('fake-torch-')
    mkdirSync(join(dir, 'torch'))
    writeFileSync(
      join(dir, 'torch/__init__.py'),
      "import atexit, sys\n__version__ = '0.0.0+fake'\natexit.register(lambda: sys.stderr.write('[W] shutting down\\n'))\n",
    )
    const python = join(dir, 'python')
    const real = torchPython.state === 'found' ? torchPython.executable : ''
    writeFileSync(python, `#!/bin/sh\nPYTHONPATH=${dir} exec ${real} "$@"\n`)
    chmodSync(python, 0o755)
    const result = await doctor(
      { REFPIPE_PYTHON: python, VIRNUCPRO_BENCH_NVML_LIB: '/nonexistent/libnvidia-ml.so.1' },
      '--json',
    )
    const report = JSON.parse(result.stdout)
    expect(report.python.found).toBe(false)
    expect(report.python.reason).toBe(
      `${python} imports torch but could not report on it: AttributeError: module 'torch' has no attribute 'cuda'`,
    )
  },
)

test('an unknown command is a usage error naming it, exit 2', async () => {
  const result = await execa('node', ['src/cli.ts', 'frobnicate'], { reject: false })
  expect(result.exitCode).toBe(2)
  expect(result.stderr).toContain("unknown command 'frobnicate'")
})

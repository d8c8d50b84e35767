import { execa } from 'execa'
import { describe, expect, test } from 'vitest'
import { createFakeNvml } from '../support/fake-nvml.ts'

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

  test('a bad option is a usage error: one line naming it, exit 2', async () => {
    const result = await doctor({}, '--bogus')
    expect(result.exitCode).toBe(2)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(result.stderr).toContain("'--bogus'")
  })
})

test('an unknown command is a usage error naming it, exit 2', async () => {
  const result = await execa('node', ['src/cli.ts', 'frobnicate'], { reject: false })
  expect(result.exitCode).toBe(2)
  expect(result.stderr).toContain("unknown command 'frobnicate'")
})

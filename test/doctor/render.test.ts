import { expect, test } from 'vitest'
import { renderDoctorReport } from '../../src/doctor/render.ts'
import { capabilities, type DoctorReport } from '../../src/doctor/report.ts'

const base: DoctorReport = {
  node: { version: '24.21.0', meetsEngines: true, required: '>=22.18' },
  nvml: { found: false, reason: 'libnvidia-ml.so.1 not found' },
  python: { found: false, reason: 'no Python with torch' },
  virnucpro: { importable: false, detail: 'No module named virnucpro', dir: null, python: 'python3' },
  target: 'reference',
}

test('a machine with nothing but Node can run the unit tests and nothing else', () => {
  expect(capabilities(base)).toEqual({
    unitTests: true,
    gpuProject: false,
    referencePipelineCpu: false,
    referencePipelineGpu: false,
    realVirnucpro: false,
  })
})

test('an old Node is called out and rules out the unit tests', () => {
  const report = { ...base, node: { ...base.node, version: '20.20.2', meetsEngines: false } }
  expect(renderDoctorReport(report)).toContain('20.20.2 (needs >=22.18: TOO OLD)')
  expect(capabilities(report).unitTests).toBe(false)
})

test('the GPU pipeline needs both a CUDA torch and a visible GPU', () => {
  const gpu = {
    index: 0,
    name: 'NVIDIA H200',
    uuid: 'GPU-1',
    pciBusId: '00000000:18:00.0',
    memTotalBytes: 1,
    gpmSupported: true,
  }
  const nvml = {
    found: true as const,
    libraryPath: '/lib/libnvidia-ml.so.1',
    driverVersion: '580',
    nvmlVersion: '13',
    gpus: [gpu],
  }
  const cpuTorch = {
    found: true as const,
    executable: 'python3',
    version: '3.12',
    torchVersion: '2.11',
    cudaAvailable: false,
    cudaDeviceCount: 0,
  }
  expect(capabilities({ ...base, nvml, python: cpuTorch }).referencePipelineGpu).toBe(false)
  expect(
    capabilities({ ...base, nvml, python: { ...cpuTorch, cudaAvailable: true, cudaDeviceCount: 1 } })
      .referencePipelineGpu,
  ).toBe(true)
  expect(renderDoctorReport({ ...base, nvml, python: cpuTorch })).toContain('CUDA no (CPU only)')
})

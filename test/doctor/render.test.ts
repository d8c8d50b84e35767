import { expect, test } from 'vitest'
import { renderDoctorReport } from '../../src/doctor/render.ts'
import { capabilities, type DoctorReport } from '../../src/doctor/report.ts'

const base: DoctorReport = {
  node: { version: '24.21.0', meetsEngines: true, required: '>=22.18' },
  nvml: { found: false, reason: 'libnvidia-ml.so.1 not found' },
  python: { found: false, reason: 'no Python with torch' },
  virnucpro: { importable: false, detail: 'No module named virnucpro', dir: null, python: 'python3' },
  target: 'reference',
  settings: { set: [], problems: [], notes: [], input: null },
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

test('settings: what is set and the input read; bad ones counted, and the gpu project then cannot run', () => {
  const ok = {
    set: ['VIRNUCPRO_BENCH_INPUT', 'VIRNUCPRO_BENCH_RUNS'],
    problems: [],
    notes: ['VIRNUCPRO_BENCH_THRESHOLDS=t.json applies to new runs of the gpu project; report ...'],
    input: { path: '/d/sample.fa', files: 2, records: 400 },
  }
  const text = renderDoctorReport({ ...base, settings: ok })
  expect(text).toMatch(/^settings\s+ok \(set: INPUT, RUNS\)$/m)
  expect(text).toMatch(/^input\s+\/d\/sample\.fa: 400 records in 2 file\(s\), valid$/m)
  expect(text).toMatch(/^note\s+VIRNUCPRO_BENCH_THRESHOLDS=t\.json applies to new runs of the gpu project; report/m)
  expect(renderDoctorReport(base)).toMatch(/^settings\s+ok \(none of VIRNUCPRO_BENCH_\* set\)$/m)
  const bad = {
    set: ['VIRNUCPRO_BENCH_RUN'],
    problems: ['VIRNUCPRO_BENCH_RUN: not a setting ...'],
    notes: [],
    input: null,
  }
  expect(renderDoctorReport({ ...base, settings: bad })).toMatch(
    /^settings\s+1 BAD \(set: RUN\); each named on stderr$/m,
  )
  const gpu = { index: 0, name: 'H200', uuid: 'GPU-1', pciBusId: '0', memTotalBytes: 1, gpmSupported: true }
  const nvml = { found: true as const, libraryPath: '/l', driverVersion: '580', nvmlVersion: '13', gpus: [gpu] }
  expect(capabilities({ ...base, nvml }).gpuProject).toBe(true)
  expect(capabilities({ ...base, nvml, settings: bad }).gpuProject).toBe(false)
})

import { capabilities, type DoctorReport } from './report.ts'

const GIB = 1024 ** 3
const yesNo = (ok: boolean) => (ok ? 'yes' : 'no')

/** Renders the doctor report for a person: one finding per line, then what can run here. Pure. */
export function renderDoctorReport(report: DoctorReport): string {
  const lines: string[] = ['virnucpro-bench doctor', '']
  const { node, nvml, python, virnucpro } = report
  lines.push(`node       ${node.version} (needs ${node.required}: ${node.meetsEngines ? 'ok' : 'TOO OLD'})`)
  if (nvml.found) {
    lines.push(`nvml       found: ${nvml.libraryPath}`)
    lines.push(`driver     ${nvml.driverVersion} (NVML ${nvml.nvmlVersion})`)
    lines.push(`gpus       ${nvml.gpus.length}`)
    for (const gpu of nvml.gpus) {
      const gpm = gpu.gpmSupported === null ? 'GPM unknown' : gpu.gpmSupported ? 'GPM yes' : 'GPM no'
      const memGib = (gpu.memTotalBytes / GIB).toFixed(1)
      lines.push(`  [${gpu.index}] ${gpu.name}, ${memGib} GiB, ${gpm}, ${gpu.pciBusId}, ${gpu.uuid}`)
    }
  } else {
    lines.push(`nvml       not found: ${nvml.reason}`)
    lines.push('gpus       none visible (the gpu project skips every test here)')
  }
  if (python.found) {
    const cuda = python.cudaAvailable ? `CUDA yes, ${python.cudaDeviceCount} device(s)` : 'CUDA no (CPU only)'
    lines.push(`python     ${python.executable} ${python.version}, torch ${python.torchVersion}, ${cuda}`)
  } else {
    lines.push(`python     no python with torch: ${python.reason}`)
  }
  lines.push(`virnucpro  ${virnucpro.importable ? 'ready' : 'cannot start'}: ${virnucpro.detail}`)
  lines.push(`target     ${report.target} (set VIRNUCPRO_BENCH_TARGET=reference|virnucpro)`)
  lines.push(...settingsLines(report.settings))
  const can = capabilities(report)
  lines.push('', 'can run here:')
  lines.push(`  unit tests                       ${yesNo(can.unitTests)}`)
  lines.push(`  gpu project                      ${yesNo(can.gpuProject)}`)
  lines.push(`  reference pipeline on CPU        ${yesNo(can.referencePipelineCpu)}`)
  lines.push(`  reference pipeline on GPU        ${yesNo(can.referencePipelineGpu)}`)
  lines.push(`  real VirNucPro on GPU            ${yesNo(can.realVirnucpro)}`)
  return `${lines.join('\n')}\n`
}

/** The settings finding: what is set, the input read, or how many problems (each printed on stderr by the command). */
export function settingsLines(settings: DoctorReport['settings']): string[] {
  const names = settings.set.map((name) => name.replace('VIRNUCPRO_BENCH_', '')).join(', ')
  const set = settings.set.length === 0 ? 'none of VIRNUCPRO_BENCH_* set' : `set: ${names}`
  const lines = [
    settings.problems.length === 0
      ? `settings   ok (${set})`
      : `settings   ${settings.problems.length} BAD (${set}); each named on stderr`,
  ]
  const { input } = settings
  if (input) lines.push(`input      ${input.path}: ${input.records} records in ${input.files} file(s), valid`)
  for (const note of settings.notes) lines.push(`note       ${note}`)
  return lines
}

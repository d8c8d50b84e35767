/** Verdicts of the memory suite from MemoryStats and the thresholds in force. */
import type { Thresholds } from '../../config/thresholds.ts'
import { type Analysis, verdict } from '../../engine/verdict.ts'
import type { Verdict } from '../../results/schema/index.ts'
import { type MemoryInput, type MemoryStats, memoryStats } from './memory.ts'

const MIB = 2 ** 20
const mib = (bytes: number) => `${(bytes / MIB).toFixed(1)} MiB`

function leakVerdicts(stats: MemoryStats, t: Thresholds): Verdict[] {
  const tolerance = t.memory.leakToleranceBytes
  const gpus = [...new Set(stats.leak.map((l) => l.gpu))]
  const base = {
    title: 'leak after the run (device memory back to baseline)',
    unit: 'MiB',
    threshold: `<= ${mib(tolerance)}`,
  }
  if (gpus.length === 0)
    return [verdict({ ...base, id: 'memory/leak', verdict: 'skipped', detail: 'no monitored run' })]
  return gpus.map((gpu) => {
    const entries = stats.leak.filter((l) => l.gpu === gpu)
    const deltas = entries.map((l) => l.deltaBytes).filter((d): d is number => d !== null)
    const id = `memory/leak/gpu${gpu}`
    if (deltas.length === 0)
      return verdict({
        ...base,
        id,
        gpu,
        verdict: 'inconclusive',
        detail: 'no reading before the spawn or after the exit',
      })
    const worst = Math.max(...deltas)
    const detail = `largest after - before over ${deltas.length} run(s): ${mib(worst)}`
    return verdict({ ...base, id, gpu, verdict: worst <= tolerance ? 'pass' : 'fail', value: worst / MIB, detail })
  })
}

function slopeVerdicts(stats: MemoryStats, t: Thresholds): Verdict[] {
  return stats.esm2Slope.map((s) => {
    const base = {
      id: `memory/esm2-slope/gpu${s.gpu}`,
      title: 'memory growth over ESM-2 batches',
      stage: 'ESM-2 Feature Extraction',
      gpu: s.gpu,
      unit: 'MiB/batch',
    }
    if (!s.bytesPerBatch)
      return verdict({
        ...base,
        verdict: 'inconclusive',
        detail: `fewer than 3 ESM-2 batches with samples (${s.batches} batches)`,
      })
    const growth = s.bytesPerBatch.median * Math.max(1, s.batches - 1)
    const threshold = `growth over the stage <= ${mib(t.memory.leakToleranceBytes)}`
    const detail = `median slope ${mib(s.bytesPerBatch.median)}/batch over ${s.batches} batches: ${mib(growth)} in the stage`
    const v = growth > t.memory.leakToleranceBytes ? 'fail' : 'pass'
    return verdict({
      ...base,
      verdict: v,
      value: s.bytesPerBatch.median / MIB,
      ci: s.bytesPerBatch.ci,
      threshold,
      detail,
    })
  })
}

function peakVerdicts(stats: MemoryStats, t: Thresholds): Verdict[] {
  const max = t.memory.maxPeakShareOfCapacity
  return stats.peaks.map((p) => {
    const base = {
      id: `memory/peak/${p.stage}/gpu${p.gpu}`,
      title: `peak memory, ${p.stage}`,
      stage: p.stage,
      gpu: p.gpu,
      unit: '% of capacity',
      threshold: `< ${max * 100}%`,
    }
    if (p.shareOfCapacity === null)
      return verdict({ ...base, verdict: 'inconclusive', detail: `peak ${mib(p.peakMemUsedBytes)}, capacity unknown` })
    const detail = `peak ${mib(p.peakMemUsedBytes)} of ${mib(p.capacityBytes!)}`
    return verdict({
      ...base,
      verdict: p.shareOfCapacity < max ? 'pass' : 'fail',
      value: p.shareOfCapacity * 100,
      detail,
    })
  })
}

function oomVerdict(stats: MemoryStats): Verdict {
  const base = {
    id: 'memory/oom-handling',
    title: 'OOM handled (OOM class, nothing left running)',
    threshold: 'exit class oom, no survivors, no GPU memory held',
  }
  const o = stats.oom
  if (!o) return verdict({ ...base, verdict: 'skipped', detail: 'no configuration that cannot fit was run' })
  const detail = `${o.label}: exit class ${o.exitClass}, OOM line ${o.sawOom ? 'seen' : 'not seen'}, ${o.survivors} survivor(s), GPU check ${o.gpuCheck}`
  return verdict({ ...base, verdict: o.handled ? 'pass' : 'fail', detail })
}

function persistentVerdict(stats: MemoryStats, reason: string | undefined): Verdict {
  const base = { id: 'memory/persistent-models', title: 'persistent-models trade-off (time vs memory)' }
  const p = stats.persistentModels
  if (!p) return verdict({ ...base, verdict: 'skipped', detail: reason ?? 'not measured' })
  const time = p.wallTime ? `wall time on/off ${p.wallTime.reason} (${p.wallTime.verdict})` : 'wall time not compared'
  const memory =
    p.peakOnBytes !== null && p.peakOffBytes !== null
      ? `peak ${mib(p.peakOnBytes)} on vs ${mib(p.peakOffBytes)} off`
      : 'peaks unknown'
  // A trade-off is information for a person, not a pass or a failure.
  return verdict({
    ...base,
    verdict: 'flag',
    value: p.wallTime?.ratio?.estimate ?? null,
    unit: 'on/off time ratio',
    ci: p.wallTime?.ratio?.ci ?? null,
    detail: `${time}; ${memory}`,
  })
}

/** Stats and verdicts of the memory suite. */
export function analyzeMemory(input: MemoryInput, t: Thresholds): Analysis<MemoryStats> {
  const stats = memoryStats(input)
  const verdicts = [...leakVerdicts(stats, t), ...slopeVerdicts(stats, t), ...peakVerdicts(stats, t), oomVerdict(stats)]
  verdicts.push(persistentVerdict(stats, input.persistentReason))
  return { stats, verdicts }
}

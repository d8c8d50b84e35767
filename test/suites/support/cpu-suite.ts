// Shared by the suite tests: a suite context in a temp results directory, the TINY fixture, CPU configurations of the
// reference pipeline (tiny scale), and the fake libnvidia-ml scripted for a scenario. The GPU readings are SCRIPTED:
// the CPU pipeline never touches a GPU, so the fake's utilization, memory and process lists stand for the scenario a
// test is about, while stage times, outputs, exit classes and cleanup come from real runs.
import { cachedDataset } from '../../../benchmarks/support/dataset.ts'
import type { Configuration } from '../../../src/engine/configuration.ts'
import { createSuiteContext, type SuiteContext } from '../../../src/engine/context.ts'
import { DEFAULT_REPETITION_POLICY } from '../../../src/measure/index.ts'
import { makeRunId } from '../../../src/results/run-id.ts'
import type { SuiteMeasure } from '../../../src/suites/index.ts'
import { ADDON_PATH, useFake } from '../../monitor/support/fake.ts'
import type { FakeDevice } from '../../support/fake-nvml.ts'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'

export const GIB = 2 ** 30

/** A suite context whose results directory is removed when the test file ends (some files measure in beforeAll). */
export async function cpuContext(): Promise<SuiteContext> {
  const root = tempDirUntilFileEnd('suites-test-')
  return createSuiteContext(makeRunId(), { ...process.env, VIRNUCPRO_BENCH_TARGET: 'reference' }, root)
}

export async function tinyInput(records = 10): Promise<string> {
  const dataset = await cachedDataset({ preset: 'TINY', overrides: { seed: 1, records } })
  return dataset.files[0]!
}

/** The reference pipeline on the CPU at tiny scale; `-w 0` keeps DataLoader workers off the 2 shared cores. */
export function cpuConfig(label: string, more: string[] = []): Configuration {
  return { label, gpus: null, device: 'cpu', extraArgs: ['--model-scale', 'tiny', '-w', '0', ...more] }
}

/** One GPU of the fake, with constant scripted readings. */
export function fakeGpu(utilGpuPct: number, memUsedBytes = 2 * GIB, memTotalBytes = 80 * GIB): FakeDevice {
  return {
    name: 'NVIDIA H200 (fake)',
    memTotalBytes,
    memUsedBytes,
    utilGpuPct,
    powerMw: 300_000,
    // The counter grows with time, as a driver's does: a list stepping per read wraps, and a run whose reads come
    // round to the same element reads 0 J (a CI run's shard test did).
    energyMj: 1_000,
    energyFromPower: true,
  }
}

/** Activates the fake with these devices; returns the measure options (monitor at 20 ms for short CPU stages). */
export function scripted(devices: FakeDevice[], runs = 1, warmupRuns = 0, input = ''): SuiteMeasure {
  useFake({ devices })
  return {
    input,
    monitor: { intervalMs: 20, addonPath: ADDON_PATH },
    policy: { ...DEFAULT_REPETITION_POLICY, warmupRuns, minRuns: runs, maxRuns: runs },
    timeoutMs: 120_000,
  }
}

// Shared by the settings study's two known answers on the CPU (issue 37): the reference pipeline with a planted option
// whose small values starve a stage. `cpu-stall-ms` sleeps before every ESM-2 batch, and `--esm-batch-size` is that
// batch's token budget, so the fewer, larger batches of 8192 tokens starve ESM-2 least; the default here is 512 (as
// VirNucPro's own DNABERT-S default of 256 tokens is). Two files, not one: together they measured 170-193 s pinned to a
// core in CI, over the 3 minutes a file may take (issue 45); apart they run side by side, each on a core of its own.
import type { SuiteContext } from '../../../src/engine/context.ts'
import { createInputResolver, type ResolvedInput } from '../../../src/input/resolver.ts'
import type { StudyOptions } from '../../../src/study/study.ts'
import type { SuiteMeasure } from '../../../src/suites/index.ts'
import { cpuConfig, cpuContext, fakeGpu, scripted } from '../../suites/support/cpu-suite.ts'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'

// Large beside the tiny model's own cost of a batch: the default's 15 batches at 40 records against the best's one
// also cost more compute (on a busy 2-core machine 2 s of 9, alone about 0.5 s: the savings measured at 1,000 ms were
// within 3.5% of the 14 s planted), which the planted 6.3 s must dwarf. 450 ms, not 1,000: at 1,000 the one file the
// study was then took 222 s of CI's 25 minutes. The gaps the halving reads: several stalls at 8 records (256 tokens
// against one batch), 0.5-0.8 s at 40 (2048 against 8192, 1-2 stalls) against runs that spread 0.1-0.2 s there.
export const STALL_MS = 450

export interface StudyKnownAnswer {
  ctx: SuiteContext
  m: Omit<SuiteMeasure, 'input'>
  options: StudyOptions
}

/** A study of `grid` on the starved default, screened at `ladder` records and answered at `capacity` records. */
export async function studyKnownAnswer(
  grid: StudyOptions['grid'],
  sizes: { ladder: number[]; capacity: number[] },
): Promise<StudyKnownAnswer> {
  const ctx = await cpuContext()
  const resolver = await createInputResolver({ cacheDir: tempDirUntilFileEnd('study-ka-inputs-') })
  // One nested draw for both, so a size in both is the very same input.
  const all = [...new Set([...sizes.ladder, ...sizes.capacity])].sort((a, b) => a - b)
  const inputs = await resolver.nested('SMALL', all)
  const at = (records: number[]): ResolvedInput[] => records.map((n) => inputs[all.indexOf(n)]!)
  const { input: _input, ...scriptedMeasure } = scripted([fakeGpu(90)], 2, 0)
  // The monitor at 50 ms, not the CPU suites' 20: these files run pinned to one core (test/support/pin-core.ts),
  // where every sample (the fake NVML, each live process's memory from /proc) is taken from the pipeline's own core.
  // Nothing here reads a stage's samples.
  const m = { ...scriptedMeasure, monitor: { ...scriptedMeasure.monitor!, intervalMs: 50 } }
  const base = cpuConfig('1 worker', [
    ...['--cpu-workers', '1', '--esm-batch-size', '512'],
    ...['--inject', `cpu-stall-ms=${STALL_MS}`],
  ])
  const options: StudyOptions = {
    grid,
    configs: [{ config: base, gpuCount: 1 }],
    ladder: at(sizes.ladder),
    capacityInputs: at(sizes.capacity),
  }
  return { ctx: { ...ctx, inputs: resolver }, m, options }
}

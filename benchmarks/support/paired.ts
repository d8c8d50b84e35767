/**
 * Runs a subject and its calibration in pairs, back to back, the order alternating from pair to pair (subject first,
 * then calibration first), so that drift over the run and a neighbour's burst of load fall on both arms alike. Warm-up
 * pairs run first and are not kept. Each arm's wall time and CPU time (this process's, all threads, user + system,
 * plus a child's when the arm reports it) are taken; a planted slowdown (planted-slowdown.ts) is burned inside the
 * subject's measured window only.
 */
import { plantOn } from './planted-slowdown.ts'
import { benchSize } from './smoke.ts'

export interface Arm {
  /**
   * The measured call. When the work runs in a child process, it returns `{ childCpuMs }` (child-cpu.ts), which is
   * added to this process's CPU time for the call.
   */
  run: () => unknown
  /** Not measured, before each measured call (e.g. removing the previous call's output). */
  before?: () => unknown
}

export interface PairOptions {
  /**
   * Which cost the ratio is of, and so which one a planted slowdown adds its share to. 'cpu' (this process's CPU
   * time, plus a child's when the arm reports one) for work measured here: busy neighbours moved it much less than
   * wall time (2 cores, load 3-5: inspection / byte scan over 11 pairs read 2.2-3.4 in CPU time, 1.9-4.1 in wall
   * time). 'wall' where the CPU time cannot be had (a child the harness itself starts).
   */
  judgeOn: 'cpu' | 'wall'
  /** Pairs kept and judged. */
  pairs: number
  /** Pairs run first and dropped (JIT tiers, page cache, lazy initialisation). */
  warmupPairs: number
}

export interface PairedSamples {
  /** The subject's wall time per kept pair, ms (a planted slowdown included). */
  subjectMs: number[]
  /** The subject's CPU time per kept pair, ms (this process, all threads; a planted slowdown included). */
  subjectCpuMs: number[]
  calibrationMs: number[]
  calibrationCpuMs: number[]
}

interface Cost {
  wallMs: number
  cpuMs: number
}

const processCpuMs = (since: NodeJS.CpuUsage) => {
  const cpu = process.cpuUsage(since)
  return (cpu.user + cpu.system) / 1000
}

async function measure(arm: Arm, plantOnto: 'cpu' | 'wall' | null): Promise<Cost> {
  await arm.before?.()
  const cpuBefore = process.cpuUsage()
  const startMs = performance.now()
  const childCpuMs = childCpuOf(await arm.run())
  // The burn is real work inside the measured window, so it counts in both costs; its size is a share of the judged one.
  if (plantOnto === 'wall') plantOn(performance.now() - startMs, 'wall')
  if (plantOnto === 'cpu') plantOn(processCpuMs(cpuBefore) + childCpuMs, 'cpu')
  return { wallMs: performance.now() - startMs, cpuMs: processCpuMs(cpuBefore) + childCpuMs }
}

function childCpuOf(result: unknown): number {
  const ms = (result as { childCpuMs?: unknown } | null | undefined)?.childCpuMs
  return typeof ms === 'number' ? ms : 0
}

/** Measures `pairs` pairs after `warmupPairs` dropped ones. */
export async function measurePairs(subject: Arm, calibration: Arm, options: PairOptions): Promise<PairedSamples> {
  const samples: PairedSamples = { subjectMs: [], subjectCpuMs: [], calibrationMs: [], calibrationCpuMs: [] }
  // The smoke pass (smoke.ts) runs each arm end to end a few times, no warm-up: its figures are not judged.
  const warmupPairs = benchSize(options.warmupPairs, 0)
  const pairs = benchSize(options.pairs, Math.min(options.pairs, 3))
  for (let pair = 0; pair < warmupPairs + pairs; pair++) {
    let s: Cost
    let c: Cost
    if (pair % 2 === 0) {
      s = await measure(subject, options.judgeOn)
      c = await measure(calibration, null)
    } else {
      c = await measure(calibration, null)
      s = await measure(subject, options.judgeOn)
    }
    if (pair < warmupPairs) continue
    samples.subjectMs.push(s.wallMs)
    samples.subjectCpuMs.push(s.cpuMs)
    samples.calibrationMs.push(c.wallMs)
    samples.calibrationCpuMs.push(c.cpuMs)
  }
  return samples
}

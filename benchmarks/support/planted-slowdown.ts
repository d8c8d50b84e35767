/**
 * A planted slowdown, to show that a ratio bench fails when the code under test gets slower and nothing else does:
 * with VIRNUCPRO_BENCH_PLANT_SLOWDOWN_PCT=30, every measurement of a subject gets 30% of its own measured cost added as
 * real work, burned on this thread right after it, inside the subject's measured window: a busy loop of 30% of its
 * wall time when the bench judges wall time, of 30% of its CPU time (on the CPU clock, so a busy machine cannot
 * shorten it) when the bench judges CPU time. The calibration arms are never touched. Read here only: no code
 * under test knows of it, and a planted run says so in every bench's name and annotation.
 *
 *   VIRNUCPRO_BENCH_PLANT_SLOWDOWN_PCT=30 npx vitest bench --project 'unit (bench)'
 */

export const PLANT_ENV = 'VIRNUCPRO_BENCH_PLANT_SLOWDOWN_PCT'

/**
 * The planted slowdown in percent (0 when unset or empty).
 * @throws RangeError when the variable is set to anything but a number in 0..1000
 */
export function plantedSlowdownPct(env: NodeJS.ProcessEnv = process.env): number {
  const text = env[PLANT_ENV]?.trim()
  if (!text) return 0
  const pct = Number(text)
  if (!(Number.isFinite(pct) && pct >= 0 && pct <= 1000))
    throw new RangeError(`${PLANT_ENV} must be a percentage in 0..1000 (e.g. 30), got '${text}'`)
  return pct
}

/** Busy-waits `durationMs` of wall time on this thread (real CPU work, not a sleep); returns the wall time it took. */
export function burnMs(durationMs: number): number {
  const startMs = performance.now()
  const endMs = startMs + durationMs
  let spins = 0
  while (performance.now() < endMs) spins++
  // `spins` keeps the loop from being optimised away; its value is of no interest.
  return spins >= 0 ? performance.now() - startMs : 0
}

/**
 * This process's CPU time, us. The process clock (getrusage RUSAGE_SELF), not the thread's: here the thread clock
 * advances in 4 ms ticks, which made a 1.8 ms burn take 4 ms (a "30%" slowdown of a 6 ms call read +66%).
 */
const processCpuUs = () => {
  const cpu = process.cpuUsage()
  return cpu.user + cpu.system
}

/** Busy-works until this process has used `cpuUs` more CPU time; returns the CPU time it used, us. */
export function burnCpuUs(cpuUs: number): number {
  const startUs = processCpuUs()
  let usedUs = 0
  while (usedUs < cpuUs) {
    burnMs(0.02)
    usedUs = processCpuUs() - startUs
  }
  return usedUs
}

/**
 * Burns `pct`% of a subject's measured cost (nothing at 0): of its wall time (`kind` 'wall', ms) or of its CPU time
 * ('cpu', ms). Returns the burn's wall time, ms.
 */
export function plantOn(measuredMs: number, kind: 'wall' | 'cpu', pct = plantedSlowdownPct()): number {
  if (pct === 0) return 0
  const startMs = performance.now()
  if (kind === 'wall') burnMs((measuredMs * pct) / 100)
  else burnCpuUs((measuredMs * 1000 * pct) / 100)
  return performance.now() - startMs
}

/** Burns `pct`% of a CPU time `cpuUs` (microseconds) on this process's CPU clock; returns the CPU time used, us. */
export function plantOnCpuUs(cpuUs: number, pct = plantedSlowdownPct()): number {
  return pct === 0 ? 0 : burnCpuUs((cpuUs * pct) / 100)
}

/** ` (planted +30%)` in a planted run, '' otherwise: appended to bench names and annotations. */
export function plantedLabel(pct = plantedSlowdownPct()): string {
  return pct > 0 ? ` (planted +${pct}%)` : ''
}

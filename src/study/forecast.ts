/**
 * The settings study's time, forecast before its first run (issue 47: a 10 x 10 x 10 grid was accepted, 2,002 runs
 * planned, about an hour, and said nothing of the time until runs had ended). Before the screen, the one run this
 * invocation has measured is the capacity probe (capacity/probe.ts): the same pipeline on the same host at a known
 * size. Each screening run is costed at that run's time, scaled by its round's size where the round is larger (the
 * cost of a run grows at most in proportion to its records, start-up apart), never scaled down where it is smaller
 * (start-up holds a small run's time up): a forecast that errs long, said as "at most about".
 */

/** A run measured before the screen: its size and wall time. */
export interface PriorRun {
  records: number
  wallMs: number
}

/**
 * ms the screen's runs should take at most: `perRound[i]` runs at `roundRecords[i]` records each (the last size
 * repeats where the ladder is shorter than the rounds, as sizeOfRound does).
 */
export function screenForecastMs(
  prior: PriorRun,
  perRound: readonly number[],
  roundRecords: readonly number[],
): number {
  return perRound.reduce((sum, runs, i) => {
    const records = roundRecords[Math.min(i, roundRecords.length - 1)] ?? prior.records
    return sum + runs * prior.wallMs * Math.max(1, records / prior.records)
  }, 0)
}

/** "at most about N min (each run costed at <what>'s X s at N records, scaled up by its size)". */
function atMostText(
  prior: PriorRun,
  perRound: readonly number[],
  roundRecords: readonly number[],
  what: string,
): string {
  const min = screenForecastMs(prior, perRound, roundRecords) / 60_000
  const run = `${(prior.wallMs / 1000).toFixed(1)} s at ${prior.records.toLocaleString('en-US')} records`
  return `the screen at most about ${min.toFixed(1)} min (each run costed at ${what}'s ${run}, scaled up by its size)`
}

/** The clause the screen's plan line carries: the forecast and what it stands on, or when it comes. */
export function screenForecastText(
  prior: PriorRun | null,
  perRound: readonly number[],
  roundRecords: readonly number[],
): string {
  if (!prior)
    return "its time is forecast from the default's warm-up, before the first measured run (no run measured before it here: VIRNUCPRO_BENCH_SIZES skips the probe)"
  return atMostText(prior, perRound, roundRecords, 'the probe run')
}

/**
 * The line said after the first round's warm-up when no run came before the screen (the sizes given, no probe): the
 * warm-up is the first run of this pipeline on this host, at the first round's size, and a first run is the slowest
 * (caches cold), so the forecast errs long as the probe's does.
 */
export function warmupForecastText(
  warmup: PriorRun,
  perRound: readonly number[],
  roundRecords: readonly number[],
): string {
  return `settings study forecast: ${atMostText(warmup, perRound, roundRecords, "the default's warm-up")}`
}

/** A bad command line: the CLI prints its message on one line and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}

/** Parses a non-negative integer option, naming the option and the bad value when it is not one. */
export function parseIntegerOption(
  command: string,
  name: string,
  value: string | undefined,
  min = 0,
): number | undefined {
  if (value === undefined) return undefined
  const parsed = Number(value)
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(parsed) || parsed < min)
    throw new UsageError(`${command}: --${name} must be an integer >= ${min}, got '${value}'`)
  return parsed
}

/** Parses a number option within [min, max]. */
export function parseNumberOption(command: string, name: string, value: string | undefined, min: number, max: number) {
  if (value === undefined) return undefined
  const parsed = Number(value)
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed < min || parsed > max)
    throw new UsageError(`${command}: --${name} must be a number in [${min}, ${max}], got '${value}'`)
  return parsed
}

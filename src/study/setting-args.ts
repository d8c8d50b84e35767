/**
 * Reading a setting's options against the default's command line: a grid point whose every option already has that
 * value there is the default itself (the CLI's last occurrence of an option wins, as argparse reads it).
 */

/** The value the arguments give `option` (its last occurrence, `--opt V` or `--opt=V`); undefined when absent. */
export function optionValue(args: readonly string[], option: string): string | undefined {
  let value: string | undefined
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === option && i + 1 < args.length) value = args[++i]
    else if (arg.startsWith(`${option}=`)) value = arg.slice(option.length + 1)
  }
  return value
}

/**
 * Whether `optionArgs` (option, value pairs as the grid makes them) change nothing on `baseArgs`.
 * @throws RangeError when `optionArgs` is not made of pairs.
 */
export function sameAsDefault(baseArgs: readonly string[], optionArgs: readonly string[]): boolean {
  if (optionArgs.length % 2 !== 0) throw new RangeError(`options not in pairs: ${optionArgs.join(' ')}`)
  for (let i = 0; i < optionArgs.length; i += 2)
    if (optionValue(baseArgs, optionArgs[i]!) !== optionArgs[i + 1]) return false
  return true
}

/**
 * `npm run bench -- [--against REV] [--save-baseline] [vitest bench arguments...]`: the two options of scripts/bench.ts;
 * everything else goes to `vitest bench` unchanged.
 */
export interface BenchArgs {
  /** The revision to compare against (`--against main`), or null to judge against this machine's baseline. */
  against: string | null
  /** Start a new baseline of this machine from this run (`--save-baseline`). */
  saveBaseline: boolean
  vitestArgs: string[]
}

/**
 * @throws RangeError naming the option when `--against` has no revision, is given twice, or comes with
 *   `--save-baseline` (a run judged against another revision saves no baseline)
 */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const parsed: BenchArgs = { against: null, saveBaseline: false, vitestArgs: [] }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--save-baseline') parsed.saveBaseline = true
    else if (arg === '--against' || arg.startsWith('--against=')) {
      const value = arg === '--against' ? argv[++i] : arg.slice('--against='.length)
      if (!value || value.startsWith('-')) throw new RangeError('--against needs a revision, e.g. --against main')
      if (parsed.against !== null) throw new RangeError(`--against given twice (${parsed.against}, ${value})`)
      parsed.against = value
    } else parsed.vitestArgs.push(arg)
  }
  if (parsed.against !== null && parsed.saveBaseline)
    throw new RangeError(
      '--save-baseline with --against: a run judged against another revision saves no baseline; run them apart',
    )
  return parsed
}

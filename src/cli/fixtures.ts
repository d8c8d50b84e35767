import { resolve } from 'node:path'
import { OutputDirError } from '../input/atomic-dir.ts'
import { FastaFormatError, FastaReadError } from '../input/fasta-errors.ts'
import { readFasta } from '../input/fasta-reader.ts'
import { SinkWriteError } from '../input/file-sink.ts'
import { estimateFixtureBytes, formatBytes, freeBytes } from '../input/fixture-size.ts'
import { fixtureFileNames, generateFixture } from '../input/generate.ts'
import { formatInspection, inspectFasta } from '../input/inspect.ts'
import { interruptible } from '../input/interrupted.ts'
import { describeLeftTemp, type LeftTemp, sweepLeftTemps } from '../input/left-temps.ts'
import { LengthCounts } from '../input/length-stats.ts'
import type { LengthDistribution } from '../input/lengths.ts'
import { MANIFEST_FILE } from '../input/manifest.ts'
import { ManifestError, readManifest, readManifestFile } from '../input/manifest-read.ts'
import { planOutputDir, refuseForeignNames } from '../input/output-dir.ts'
import { type FixtureOverrides, PRESET_NAMES, type PresetName, resolveParams } from '../input/presets.ts'
import { SAMPLE_SELECTIONS, type SampleSelection, STRATIFY_BY, type StratifyBy, sampleFasta } from '../input/sample.ts'
import { type CommandSpec, parseCommand, selectSubcommand } from './command-spec.ts'
import { UnusableDataError } from './exit-codes.ts'
import { checkOutputTarget } from './output-target.ts'
import { fixturesGenerateSpec, fixturesInspectSpec, fixturesSampleSpec, fixturesSpec } from './specs.ts'
import { parseIntegerOption, parseNumberOption, UsageError } from './usage-error.ts'

const RUNNERS = new Map<CommandSpec, (args: string[]) => Promise<number>>([
  [fixturesGenerateSpec, generate],
  [fixturesSampleSpec, sample],
  [fixturesInspectSpec, inspect],
])

/**
 * `virnucpro-bench fixtures generate|sample|inspect`: bad arguments are a UsageError (exit 2); a bad input file, an
 * output directory it may not write to or that cannot take the fixture is one line naming it and the fix (exit 3);
 * SIGINT or SIGTERM during a write removes what was written so far (exit 130 or 143).
 */
export async function run(args: string[]): Promise<number> {
  const selected = selectSubcommand(fixturesSpec, args)
  // fixtures takes no option of its own but --help, which selectSubcommand has answered.
  if (!('spec' in selected)) throw new UsageError(`${fixturesSpec.name}: expected a subcommand before options`)
  try {
    return await RUNNERS.get(selected.spec)!(selected.args)
  } catch (error) {
    const refusal = refusalOf(error)
    if (refusal === undefined) throw error
    throw new UnusableDataError(`${selected.spec.name}: ${refusal}`, { cause: error })
  }
}

/** The one line of a bad input or output file, its fix added where the error carries none; undefined for others. */
function refusalOf(error: unknown): string | undefined {
  const fixes: [new (...args: never[]) => Error, string][] = [
    [FastaFormatError, 'correct the file there'],
    [FastaReadError, 'give a readable FASTA file (plain or gzip)'],
    [OutputDirError, 'choose another --out'],
    [SinkWriteError, 'free space, or choose another --out'],
  ]
  const fix = fixes.find(([kind]) => error instanceof kind)?.[1]
  if (fix === undefined) return undefined
  const message = (error as Error).message
  return message.includes('; ') ? message : `${message}; ${fix}`
}

/** Fixtures never go into a run directory (issue 58): their manifest.json would be read as one of its records. */
function checkOutDirTarget(command: string, out: string): void {
  checkOutputTarget({
    command,
    option: '--out',
    target: out,
    instead: 'a directory outside every run directory, e.g. fixtures/<name>',
  })
}

async function generate(args: string[]): Promise<number> {
  const command = fixturesGenerateSpec.name
  const { values } = parseCommand(fixturesGenerateSpec, args)
  const preset = values.preset?.toUpperCase()
  if (!preset || !(PRESET_NAMES as readonly string[]).includes(preset))
    throw new UsageError(`${command}: --preset must be one of ${PRESET_NAMES.join(', ')}, got '${values.preset ?? ''}'`)
  if (!values.out) throw new UsageError(`${command}: --out DIR is required`)
  if (values.model !== undefined && values.model !== 'coding' && values.model !== 'uniform')
    throw new UsageError(`${command}: --model must be coding or uniform, got '${values.model}'`)
  const overrides: FixtureOverrides = {
    seed: parseIntegerOption(command, 'seed', values.seed),
    records: parseIntegerOption(command, 'records', values.records, 1),
    minLength: parseIntegerOption(command, 'min-length', values['min-length'], 1),
    maxLength: parseIntegerOption(command, 'max-length', values['max-length'], 1),
    gc: parseNumberOption(command, 'gc', values.gc, 0.1, 0.9),
    model: values.model as 'coding' | 'uniform' | undefined,
    codingFraction: parseNumberOption(command, 'coding-fraction', values['coding-fraction'], 0.01, 1),
    files: parseIntegerOption(command, 'files', values.files, 1),
    lineWidth: parseIntegerOption(command, 'line-width', values['line-width']),
    lengths: values['length-from'] ? await empiricalLengths(values['length-from']) : undefined,
  }
  let params: ReturnType<typeof resolveParams>
  try {
    params = resolveParams(preset as PresetName, overrides)
  } catch (error) {
    throw new UsageError(`${command}: ${(error as Error).message}`, { cause: error })
  }
  const outDir = resolve(values.out)
  checkOutDirTarget(command, values.out)
  // Refused before any work: a directory that is not ours to write, then a fixture that cannot fit.
  await refuseForeignNames(outDir, await planOutputDir(outDir), fixtureFileNames(params))
  const bytes = estimateFixtureBytes(params)
  const onLeftTemp = sayLeftTemp(command)
  // Before the space is counted: a killed write's temporary directory holds space the new one may need.
  for (const left of await sweepLeftTemps(outDir)) onLeftTemp(left)
  await refuseBeyondFreeSpace(outDir, bytes, params.records)
  // What it will write, said once nothing but a failing write can stop it (so a refusal stays the only line).
  const onStart = () =>
    console.error(`${command}: about ${formatBytes(bytes)} (${params.records} records) into ${outDir}`)
  const done = await interruptible(command, outDir, (signal) =>
    generateFixture(params, outDir, { signal, onStart, onLeftTemp }),
  )
  if (typeof done === 'number') return done
  console.log(resolve(outDir, MANIFEST_FILE))
  return 0
}

/** One line on stderr for each temporary directory a killed earlier write left: removed, or kept and why. */
const sayLeftTemp = (command: string) => (left: LeftTemp) => console.error(`${command}: ${describeLeftTemp(left)}`)

/** @throws UnusableDataError when about `bytes` will not fit where `outDir` is, saying how many records would. */
async function refuseBeyondFreeSpace(outDir: string, bytes: number, records: number): Promise<void> {
  const free = await freeBytes(outDir)
  if (bytes <= free) return
  const fit = Math.floor((records * free) / bytes)
  throw new UnusableDataError(
    `${fixturesGenerateSpec.name} --records ${records}: about ${formatBytes(bytes)} would be written and ${formatBytes(free)} are free at ${outDir}; lower --records (about ${fit.toLocaleString('en-US')} fit), or free space`,
  )
}

/**
 * An empirical length distribution from a FASTA file, or a fixture: its directory (DIR/) or its manifest (any .json,
 * read as named: `other.json` once silently read the manifest.json beside it).
 * @throws UnusableDataError naming the file and the fix when it is no fixture manifest.
 */
async function empiricalLengths(from: string): Promise<LengthDistribution> {
  if (from.endsWith('.json') || from.endsWith('/')) {
    const manifest = await (from.endsWith('/') ? readManifest(from) : readManifestFile(from)).catch((error) => {
      if (!(error instanceof ManifestError)) throw error
      const fix = 'point it at a fixture directory (DIR/), its manifest.json, or a FASTA file'
      throw new UnusableDataError(`${fixturesGenerateSpec.name} --length-from: ${error.message}; ${fix}`, {
        cause: error,
      })
    })
    const { histogram } = manifest.lengths
    return { kind: 'empirical', min: histogram.edges[0]!, max: histogram.edges.at(-1)! - 1, histogram }
  }
  const counts = new LengthCounts()
  await readFasta(from, (record) => counts.add(record.length))
  return { kind: 'empirical', min: counts.min, max: counts.max, histogram: counts.histogram(100) }
}

async function sample(args: string[]): Promise<number> {
  const command = fixturesSampleSpec.name
  const { values } = parseCommand(fixturesSampleSpec, args)
  if (!values.from) throw new UsageError(`${command}: --from FILE is required`)
  const stratifyBy = values.stratify ?? 'length'
  if (!(STRATIFY_BY as readonly string[]).includes(stratifyBy))
    throw new UsageError(`${command}: --stratify must be one of ${STRATIFY_BY.join(', ')}, got '${stratifyBy}'`)
  const selection = values.selection ?? 'stratified'
  if (!(SAMPLE_SELECTIONS as readonly string[]).includes(selection))
    throw new UsageError(`${command}: --selection must be one of ${SAMPLE_SELECTIONS.join(', ')}, got '${selection}'`)
  if (!values.out) throw new UsageError(`${command}: --out DIR is required`)
  const records = parseIntegerOption(command, 'records', values.records, 1)
  if (records === undefined) throw new UsageError(`${command}: --records N is required`)
  const options = {
    from: values.from,
    records,
    seed: parseIntegerOption(command, 'seed', values.seed),
    files: parseIntegerOption(command, 'files', values.files, 1),
    stratifyBy: stratifyBy as StratifyBy,
    strata: parseIntegerOption(command, 'strata', values.strata, 1),
    selection: selection as SampleSelection,
    chunkLength: parseIntegerOption(command, 'chunk-length', values['chunk-length'], 1),
  }
  const outDir = resolve(values.out)
  checkOutDirTarget(command, values.out)
  await planOutputDir(outDir)
  let done: number | object
  try {
    const onLeftTemp = sayLeftTemp(command)
    done = await interruptible(command, outDir, (signal) => sampleFasta({ ...options, signal, onLeftTemp }, outDir))
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(`${command}: ${error.message}`, { cause: error })
    throw error
  }
  if (typeof done === 'number') return done
  console.log(resolve(outDir, MANIFEST_FILE))
  return 0
}

async function inspect(args: string[]): Promise<number> {
  const { positionals } = parseCommand(fixturesInspectSpec, args)
  if (positionals.length !== 1) throw new UsageError(`fixtures inspect: expected one FILE, got ${positionals.length}`)
  console.log(formatInspection(await inspectFasta(positionals[0]!)))
  return 0
}

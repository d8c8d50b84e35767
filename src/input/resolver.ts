/**
 * The one resolver every GPU suite asks for its input. With VIRNUCPRO_BENCH_INPUT set (a FASTA, a `.fa.gz`, or a
 * directory of parts), the user's own sample replaces the generated presets: a suite that runs N records gets a nested,
 * work-stratified subset of it (nested-order.ts: every smaller subset inside every larger one, each doing the input's
 * GPU work per record), or the whole input when N reaches its size. Without it, suites get the seeded preset fixtures
 * they always had. The pipeline always reads one plain FASTA: gzip data (whatever the file's name) or a directory of
 * parts is written out as one (once, cached). Every input handed out is remembered, so a record's provenance can name what its runs read.
 */
import { existsSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import { cachedDataset } from './dataset-cache.ts'
import { isGzipFile } from './fasta-reader.ts'
import { InputError, type InputIdentity, identifyInput } from './identity.ts'
import { MANIFEST_FILE, type SampleManifest } from './manifest.ts'
import { readManifest } from './manifest-read.ts'
import type { PresetName } from './presets.ts'
import { DEFAULT_WORK_CHUNK_LENGTH, sampleFasta } from './sample.ts'

/** One FASTA a suite runs on. */
export interface ResolvedInput {
  /** The plain FASTA the pipeline reads. */
  file: string
  records: number
  /**
   * `full`: the whole source; `subset`: a nested work-stratified subset of it; `superset`: a generated preset at more
   * records than the source, whose first records are the source (InputResolver.resize).
   */
  kind: 'full' | 'subset' | 'superset'
  /** The subset's GPU work per record against the source's ((sample - source) / source); 0 for the whole source. */
  workRelativeDifference: number
  source: InputIdentity
}

/** What a record's provenance says about its input: the source, and each file of it the record's runs read. */
export interface InputProvenance {
  source: InputIdentity
  used: { file: string; records: number; kind: ResolvedInput['kind']; workRelativeDifference: number }[]
}

export interface InputResolver {
  /** The user's input (validated), or null when suites use generated presets. */
  readonly user: InputIdentity | null
  /** `records` records of the suite's input; `records` 0: the preset's own count (or the whole user input). */
  input(preset: PresetName, records: number): Promise<ResolvedInput>
  /** Nested subsets at `sizes` (records, ascending) of one source: the user's input, else `preset` generated at the largest size. */
  nested(preset: PresetName, sizes: readonly number[]): Promise<ResolvedInput[]>
  /**
   * `records` records of the source `base` was drawn from, nested with every subset of it handed out (a size the
   * capacity design adds): a nested subset of the source (all of a user's input from its size on), or, above a
   * generated source's size, the preset generated at `records`, whose first records are the source. Its work per
   * record is read against `base`'s source, so its sequence-equivalents share their unit.
   * @throws InputError when a generated preset at more records does not begin with the source (it would not hold the
   * measured subsets).
   */
  resize(base: ResolvedInput, records: number): Promise<ResolvedInput>
  /** The most records `resize` gives from `base`'s source: a user's input's size; unbounded for a generated preset. */
  sizeLimit(base: ResolvedInput): number
  /** Provenance of the inputs this resolver handed out whose files are among `files`; null when none is. */
  provenanceOf(files: readonly string[]): InputProvenance | null
}

/**
 * A generated preset at more records must begin with the source, byte for byte: the generator writes one record
 * stream (src/input/generate.ts), so a smaller count is its prefix, and the measured subsets of the source are then
 * inside the larger input. Checked, not assumed: a generator that stopped being prefix-stable would break nesting.
 */
async function assertPrefix(source: InputIdentity, larger: InputIdentity): Promise<void> {
  if (source.files.length === 1 && larger.files.length === 1 && (await isPrefix(source.files[0]!, larger.files[0]!)))
    return
  throw new InputError(
    `generated ${source.preset} at ${larger.records} records (${larger.path}) does not begin with the source at ${source.records} (${source.path}): it would not hold the measured subsets`,
  )
}

/** Whether file `a`'s bytes begin file `b`, read in 1 MiB chunks (bounded memory whatever the size). */
async function isPrefix(a: string, b: string): Promise<boolean> {
  const fa = await open(a)
  try {
    const fb = await open(b)
    try {
      const [ba, bb] = [Buffer.alloc(1 << 20), Buffer.alloc(1 << 20)]
      for (let at = 0; ; at += ba.length) {
        const { bytesRead } = await fa.read(ba, 0, ba.length, at)
        if (bytesRead === 0) return true
        const got = await fb.read(bb, 0, bytesRead, at)
        if (got.bytesRead !== bytesRead || !ba.subarray(0, bytesRead).equals(bb.subarray(0, bytesRead))) return false
      }
    } finally {
      await fb.close()
    }
  } finally {
    await fa.close()
  }
}

/** Seed of the nested order: fixed, so every suite and every invocation draws the same subsets of one input. */
const SUBSET_SEED = 1

export interface ResolverOptions {
  /** VIRNUCPRO_BENCH_INPUT; empty or absent: generated presets. */
  userInput?: string | null
  /** Where generated fixtures, subsets, plain copies and identities are cached. */
  cacheDir: string
  chunkLength?: number
}

/**
 * Builds the resolver, reading and validating the user's input first (before any GPU time is spent).
 * @throws InputError / FastaFormatError / FastaReadError naming the input, file and line.
 */
export async function createInputResolver(options: ResolverOptions): Promise<InputResolver> {
  const chunkLength = options.chunkLength ?? DEFAULT_WORK_CHUNK_LENGTH
  const cacheDir = options.cacheDir
  const userPath = options.userInput?.trim() || null
  const user = userPath ? await identifyInput(userPath, { source: 'user', chunkLength, cacheDir }) : null
  const handedOut = new Map<string, ResolvedInput>()
  const remember = (r: ResolvedInput) => {
    handedOut.set(r.file, r)
    return r
  }

  /** `records` of `source` (all of it when records >= its size). */
  async function of(source: InputIdentity, records: number): Promise<ResolvedInput> {
    const whole = records <= 0 || records >= source.records
    // By content, not name: a `.fa` holding gzip data is read fine here but would reach the pipeline compressed.
    const plain = source.files.length === 1 && !(await isGzipFile(source.files[0]!))
    if (whole && plain)
      return remember({
        file: source.files[0]!,
        records: source.records,
        kind: 'full',
        workRelativeDifference: 0,
        source,
      })
    const count = whole ? source.records : records
    const dir = join(
      cacheDir,
      `input-${source.sha256.slice(0, 16)}-${whole ? 'all' : `nested-${count}`}-L${chunkLength}`,
    )
    const manifest = existsSync(join(dir, MANIFEST_FILE))
      ? ((await readManifest(dir)) as SampleManifest)
      : await sampleFasta(
          {
            from: source.files,
            records: count,
            seed: SUBSET_SEED,
            stratifyBy: 'work',
            selection: 'nested',
            chunkLength,
          },
          dir,
        )
    return remember({
      file: join(dir, manifest.files[0]!.name),
      records: manifest.totals.records,
      kind: whole ? 'full' : 'subset',
      workRelativeDifference: manifest.workPerRecord.relativeDifference,
      source,
    })
  }

  async function generated(preset: PresetName, records: number): Promise<InputIdentity> {
    const dataset = await cachedDataset({ preset, overrides: { seed: 1, ...(records > 0 && { records }) } }, cacheDir)
    return identifyInput(dataset.dir, { source: 'generated', chunkLength, cacheDir, preset })
  }

  return {
    user,
    async input(preset, records) {
      if (user) return of(user, records)
      const source = await generated(preset, records)
      return of(source, 0)
    },
    async nested(preset, sizes) {
      const sorted = [...sizes].sort((a, b) => a - b)
      const source = user ?? (await generated(preset, sorted.at(-1) ?? 0))
      const out: ResolvedInput[] = []
      for (const size of sorted) out.push(await of(source, size))
      return out
    },
    async resize(base, records) {
      const source = base.source
      if (source.source === 'user' || records <= source.records) return of(source, records)
      const larger = await generated(source.preset as PresetName, records)
      await assertPrefix(source, larger)
      return remember({
        file: larger.files[0]!,
        records: larger.records,
        kind: 'superset',
        workRelativeDifference: larger.workPerRecord / source.workPerRecord - 1,
        source,
      })
    },
    sizeLimit: (base) => (base.source.source === 'user' ? base.source.records : Number.POSITIVE_INFINITY),
    provenanceOf(files) {
      const used = files.flatMap((f) => {
        const r = handedOut.get(f)
        return r ? [r] : []
      })
      if (used.length === 0) return null
      const unique = [...new Map(used.map((r) => [r.file, r])).values()].sort((a, b) => a.records - b.records)
      return {
        source: unique[0]!.source,
        used: unique.map(({ file, records, kind, workRelativeDifference }) => ({
          file,
          records,
          kind,
          workRelativeDifference,
        })),
      }
    },
  }
}

/**
 * What an input is: its files, a content hash, records, bases and GPU work per record. Every record's provenance names
 * the input its runs read, so two results can be told apart by what they ran on, not only by a path. Reading a user's
 * input is also its validation: the FASTA reader's one clear error (file and line) comes out of here, before any GPU
 * time is spent. Identities are cached on disk by path, size and modification time: a multi-gigabyte sample is read
 * once, not once per suite file.
 */
import { createHash } from 'node:crypto'
import { mkdir, readFile, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { writeFileAtomic } from '../platform/atomic-write.ts'
import { sha256OfFiles } from '../platform/file-hash.ts'
import { InputError, inputFiles, readInput } from './input-check.ts'

export { InputError, inputFiles }

export interface InputIdentity {
  /** `user`: VIRNUCPRO_BENCH_INPUT; `generated`: a seeded preset fixture. */
  source: 'user' | 'generated'
  /** As given (absolute): a FASTA file, a `.fa.gz`, or a directory of parts. */
  path: string
  /** The FASTA files read, in order. */
  files: string[]
  /** sha256 of the files' bytes as stored (gzip included), concatenated in order. */
  sha256: string
  records: number
  bases: number
  /** Mean GPU work per record: bases of the stop-free frames at `chunkLength` (record-work.ts). */
  workPerRecord: number
  chunkLength: number
  /** The preset of a generated input; null for a user's. */
  preset: string | null
}

/** The cache key of an identity: what would change it without its path changing. */
async function stamp(files: readonly string[], chunkLength: number): Promise<string> {
  const parts = await Promise.all(files.map(async (f) => [f, (await stat(f)).size, (await stat(f)).mtimeMs]))
  return (
    createHash('sha256')
      // version 2: IDs checked across parts and encodings refused; an identity cached before may not have passed that.
      .update(JSON.stringify({ parts, chunkLength, version: 2 }))
      .digest('hex')
      .slice(0, 24)
  )
}

export interface IdentityOptions {
  source: InputIdentity['source']
  chunkLength: number
  preset?: string | null
  /** Where identities are cached; omitted: none. */
  cacheDir?: string
}

/**
 * The identity of the input at `path` (read, hashed and validated; cached when `cacheDir` is given).
 * @throws InputError for a missing path or a directory without FASTA files; FastaFormatError / FastaReadError from
 * the reader (input/input-check.ts), naming the file and line, both files of an ID two parts hold, and an encoding
 * that is not ASCII.
 */
export async function identifyInput(path: string, options: IdentityOptions): Promise<InputIdentity> {
  const files = await inputFiles(path)
  const key = await stamp(files, options.chunkLength)
  const cached = options.cacheDir ? join(options.cacheDir, `input-identity-${key}.json`) : null
  if (cached) {
    const text = await readFile(cached, 'utf8').catch(() => null)
    if (text) return { ...(JSON.parse(text) as InputIdentity), source: options.source, preset: options.preset ?? null }
  }
  const { records, bases, totalWork } = await readInput(path, options.chunkLength)
  const identity: InputIdentity = {
    source: options.source,
    path: resolve(path),
    files,
    sha256: await sha256OfFiles(files),
    records,
    bases,
    workPerRecord: totalWork / records,
    chunkLength: options.chunkLength,
    preset: options.preset ?? null,
  }
  if (cached && options.cacheDir) {
    await mkdir(options.cacheDir, { recursive: true })
    await writeFileAtomic(cached, JSON.stringify(identity))
  }
  return identity
}

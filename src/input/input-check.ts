/**
 * The input (VIRNUCPRO_BENCH_INPUT) read and validated as the suites read it: its files (a FASTA, a `.fa.gz`, or a
 * directory of parts), every record through the validating reader, IDs unique across the parts (the pipeline gets them
 * merged into one FASTA), encodings other than ASCII refused by name. Doctor, the gpu project's global setup and the
 * suites' input identity (src/input/identity.ts) all go through `readInput`, so they refuse alike.
 */
import { readdir, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { formatRefusal } from '../platform/setting-error.ts'
import { readFastaParts } from './fasta-parts.ts'
import { workOfLongRecords } from './long-records.ts'
import { RecordWork } from './record-work.ts'

/** An input that is no input: a missing path, a directory without FASTA parts. Its message is one refusal line. */
export class InputError extends Error {
  override name = 'InputError'
}

/** FASTA files a directory of parts holds: `*.fa|fasta|fna|fas` (optionally `.gz`), by name. */
const FASTA_NAME = /\.(fa|fasta|fna|fas)(\.gz)?$/i
const WHAT_AN_INPUT_IS = 'give a FASTA file, a .fa.gz, or a directory of FASTA parts (*.fa, *.fasta, *.fna, *.fas)'

/**
 * The FASTA files `path` names: itself, or a directory's FASTA parts sorted by name.
 * @throws InputError naming the path when it is missing or a directory without FASTA files.
 */
export async function inputFiles(path: string): Promise<string[]> {
  const absolute = resolve(path)
  const info = await stat(absolute).catch((error: NodeJS.ErrnoException) => {
    const problem = error.code === 'ENOENT' ? 'no such file or directory' : `cannot be read (${error.message})`
    throw new InputError(formatRefusal(`input ${absolute}`, problem, WHAT_AN_INPUT_IS), { cause: error })
  })
  if (!info.isDirectory()) return [absolute]
  const names = (await readdir(absolute)).filter((name) => FASTA_NAME.test(name)).sort()
  if (names.length === 0)
    throw new InputError(
      formatRefusal(`input ${absolute}`, 'directory holds no FASTA files (optionally .gz)', WHAT_AN_INPUT_IS),
    )
  return names.map((name) => join(absolute, name))
}

/** What one validating pass over an input measures. */
export interface InputContents {
  files: string[]
  records: number
  bases: number
  /** Bases of the stop-free frames at `chunkLength`, summed over the records (record-work.ts). */
  totalWork: number
}

/**
 * Bases of one record validation holds in memory (2^24 = 16,777,216): above the longest prokaryotic genome (about
 * 16 Mb), so reads, contigs and whole bacterial or viral genomes are validated and measured in one pass. A longer
 * record (up to MAX_RECORD_BASES, beyond that it is refused) is counted, then measured in a second pass over its file
 * in fixed pieces (long-records.ts): validation memory does not grow with a record's length.
 */
export const INPUT_HOLD_BASES = 2 ** 24

export interface ReadInputOptions {
  /** Bases of a record held in memory (default INPUT_HOLD_BASES); longer ones are measured streaming. */
  holdBases?: number
}

/**
 * Reads and validates the input at `path`: every part, every record, IDs unique across the parts.
 * @throws InputError for a missing path or a directory without FASTA files; FastaFormatError (file and line; for a
 *   repeated ID both files; a record longer than MAX_RECORD_BASES with its length) or FastaReadError from the reader.
 */
export async function readInput(
  path: string,
  chunkLength: number,
  options: ReadInputOptions = {},
): Promise<InputContents> {
  const files = await inputFiles(path)
  const work = new RecordWork()
  let bases = 0
  let totalWork = 0
  /** Per file, the records not held: their index in the file -> their length. */
  const notHeld = files.map(() => new Map<number, number>())
  const recordsOf = files.map(() => 0)
  const records = await readFastaParts(
    files,
    (record, file) => {
      const index = recordsOf[file]!++
      bases += record.length
      if (record.held) totalWork += work.bases(record.bases, 0, record.length, chunkLength)
      else notHeld[file]!.set(index, record.length)
    },
    { holdBases: options.holdBases ?? INPUT_HOLD_BASES },
  )
  for (const [file, lengths] of notHeld.entries())
    if (lengths.size > 0) totalWork += await workOfLongRecords(files[file]!, lengths, chunkLength)
  return { files, records, bases, totalWork }
}

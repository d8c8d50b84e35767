/**
 * The input (VIRNUCPRO_BENCH_INPUT) read and validated as the suites read it: its files (a FASTA, a `.fa.gz`, or a
 * directory of parts), every record through the validating reader, IDs unique across the parts (the pipeline gets them
 * merged into one FASTA), encodings other than ASCII refused by name. Doctor, the gpu project's global setup and the
 * suites' input identity (src/suites/input-identity.ts) all go through `readInput`, so they refuse alike.
 */
import { readdir, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { readFastaParts } from '../fixtures/fasta-parts.ts'
import { RecordWork } from '../fixtures/record-work.ts'
import { formatRefusal } from './setting-error.ts'

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
 * Reads and validates the input at `path`: every part, every record, IDs unique across the parts.
 * @throws InputError for a missing path or a directory without FASTA files; FastaFormatError (file and line; for a
 *   repeated ID both files) or FastaReadError from the reader.
 */
export async function readInput(path: string, chunkLength: number): Promise<InputContents> {
  const files = await inputFiles(path)
  const work = new RecordWork()
  let bases = 0
  let totalWork = 0
  const records = await readFastaParts(files, (record) => {
    bases += record.length
    totalWork += work.bases(record.bases, 0, record.length, chunkLength)
  })
  return { files, records, bases, totalWork }
}

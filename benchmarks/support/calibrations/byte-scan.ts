/**
 * The calibration of FASTA parsing and inspection: a byte scan of the same file, read the way the parser reads it
 * (1 MiB chunks through one FileHandle, the next read in flight while a chunk is scanned), counting lines, headers
 * and sequence bytes through a 256-entry table, in a plain loop. What a parser cannot do with less.
 *
 * Why a table and not a count per letter: a per-letter histogram (letters[byte]++) chains each increment on the
 * last one of the same letter through memory, a different bottleneck from the parser's table lookups; measured here it
 * ran at 135 MB/s in one run and 247 MB/s in the next, the parse / scan ratio moving from 0.62 to 0.95.
 */
import { open } from 'node:fs/promises'

const CHUNK_BYTES = 1024 * 1024
const NEWLINE = 10
const HEADER = 62

/** 1 for the IUPAC nucleotide codes, either case. */
const SEQUENCE = new Uint8Array(256)
for (const letter of 'ACGTURYSWKMBDHVNacgturyswkmbdhvn') SEQUENCE[letter.charCodeAt(0)] = 1

export interface ByteScan {
  lines: number
  headers: number
  /** Nucleotide codes outside headers. */
  sequenceBytes: number
  /** Whether the last chunk ended inside a header line. */
  inHeader: boolean
}

/** Counts chunk[0..size) into `scan`. */
function scanChunk(chunk: Uint8Array, size: number, scan: ByteScan): void {
  const sequence = SEQUENCE
  let { lines, headers, sequenceBytes, inHeader } = scan
  for (let i = 0; i < size; i++) {
    const byte = chunk[i]!
    if (byte === NEWLINE) {
      lines++
      inHeader = false
    } else if (!inHeader) {
      if (byte === HEADER) {
        headers++
        inHeader = true
      } else sequenceBytes += sequence[byte]!
    }
  }
  scan.lines = lines
  scan.headers = headers
  scan.sequenceBytes = sequenceBytes
  scan.inHeader = inHeader
}

export async function scanBytes(path: string): Promise<ByteScan> {
  const file = await open(path, 'r')
  const scan: ByteScan = { lines: 0, headers: 0, sequenceBytes: 0, inHeader: false }
  try {
    const buffers = [Buffer.allocUnsafe(CHUNK_BYTES), Buffer.allocUnsafe(CHUNK_BYTES)]
    let current = 0
    let position = 0
    let pending = file.read(buffers[current]!, 0, CHUNK_BYTES, position)
    for (;;) {
      const { bytesRead } = await pending
      if (bytesRead === 0) return scan
      position += bytesRead
      const chunk = buffers[current]!
      current ^= 1
      pending = file.read(buffers[current]!, 0, CHUNK_BYTES, position)
      scanChunk(chunk, bytesRead, scan)
    }
  } finally {
    await file.close()
  }
}

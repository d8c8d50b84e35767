/**
 * The calibration of FASTA generation: a plain buffered write loop of as many FASTA-shaped bytes as the generator
 * wrote (60-column lines of A/C/G/T, one xorshift step per base, into a 512 KiB buffer written whole through one
 * FileHandle). The same kind of work as the generator (a typed-array fill loop, writes), with none of its code.
 *
 * Why not copy the generator's own bytes from memory into the file: measured here (2 cores, busy), a memcpy write
 * loop is so short and so I/O-bound (page cache, writeback) that generation / write read 4.2 to 12.2 over 8 pairs,
 * against 0.67 to 0.70 for three 5-pair medians with this loop.
 */
import { open } from 'node:fs/promises'
import { XORSHIFT_SEED, xorshift32 } from './xorshift.ts'

const BUFFER_BYTES = 512 * 1024
const LINE_BASES = 60
const NEWLINE = 10
const BASES = Uint8Array.from([65, 67, 71, 84])

interface FillState {
  random: number
  column: number
}

/** Fills buffer[0..size) with bases and line breaks, continuing the line and the random stream of `state`. */
function fill(buffer: Uint8Array, size: number, state: FillState): void {
  let { random, column } = state
  for (let i = 0; i < size; i++) {
    if (column === LINE_BASES) {
      buffer[i] = NEWLINE
      column = 0
    } else {
      random = xorshift32(random)
      buffer[i] = BASES[random & 3]!
      column++
    }
  }
  state.random = random
  state.column = column
}

/** Writes `totalBytes` bytes to `path` (truncating it). */
export async function writePlainFasta(path: string, totalBytes: number): Promise<void> {
  const file = await open(path, 'w')
  try {
    const buffer = new Uint8Array(BUFFER_BYTES)
    const state: FillState = { random: XORSHIFT_SEED, column: 0 }
    for (let written = 0; written < totalBytes; ) {
      const size = Math.min(BUFFER_BYTES, totalBytes - written)
      fill(buffer, size, state)
      await file.write(buffer, 0, size)
      written += size
    }
  } finally {
    await file.close()
  }
}

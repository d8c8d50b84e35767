// A .fa.gz holding one record of any length in a few MB, written in well under a second: the sequence repeats one
// block of whole lines, compressed once and written as many gzip members as it takes (RFC 1952: a gzip file is one
// or more members, read one after another by gunzip and by Node's zlib alike). What a reader decompresses is the
// full record, byte for byte as if written plainly.
import { closeSync, openSync, writeSync } from 'node:fs'
import { gzipSync } from 'node:zlib'

const LINE_BASES = 60
const BLOCK_LINES = 16_384
const PATTERN = 'ACGTTGCAAGCTTCGATCCA'

/** Writes `path`: `>id` and `bases` bases in lines of 60, gzip. */
export function writeOneRecordGz(path: string, id: string, bases: number): void {
  const line = PATTERN.repeat(Math.ceil(LINE_BASES / PATTERN.length)).slice(0, LINE_BASES)
  const block = gzipSync(`${line}\n`.repeat(BLOCK_LINES), { level: 9 })
  const blockBases = LINE_BASES * BLOCK_LINES
  const fd = openSync(path, 'w')
  try {
    writeSync(fd, gzipSync(`>${id}\n`))
    let left = bases
    for (; left >= blockBases; left -= blockBases) writeSync(fd, block)
    const tail: string[] = []
    for (; left > 0; left -= Math.min(LINE_BASES, left)) tail.push(`${line.slice(0, Math.min(LINE_BASES, left))}\n`)
    if (tail.length > 0) writeSync(fd, gzipSync(tail.join('')))
  } finally {
    closeSync(fd)
  }
}

/**
 * A JSON array written in chunks: items are collected and serialized ITEMS_PER_CHUNK at a time, so the objects made
 * only to be written (trace events, stripped copies) die young instead of outliving several young-generation
 * collections and being copied into the old generation, which is most of the cost of a large report's bulk files.
 */

/** Small enough that a chunk's objects (a few MB) are collected young; large enough that JSON.stringify stays fast. */
export const ITEMS_PER_CHUNK = 20_000

export interface JsonArrayWriter<T> {
  push(item: T): void
  /** The array's JSON text, `[...]`, compact; the writer is empty afterwards. */
  text(): string
}

export function jsonArrayWriter<T>(itemsPerChunk = ITEMS_PER_CHUNK): JsonArrayWriter<T> {
  const chunks: string[] = []
  let batch: T[] = []
  const flush = () => {
    // `[a,b]` -> `a,b`: the chunks are joined into one array by text().
    if (batch.length > 0) chunks.push(JSON.stringify(batch).slice(1, -1))
    batch = []
  }
  return {
    push(item) {
      batch.push(item)
      if (batch.length >= itemsPerChunk) flush()
    },
    text() {
      flush()
      const joined = `[${chunks.join(',')}]`
      chunks.length = 0
      return joined
    },
  }
}

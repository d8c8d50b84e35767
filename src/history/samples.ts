/**
 * A point's runs as the history stores them: little-endian float64s in one BLOB. Why not JSON: a blob is the numbers
 * themselves (8 bytes each, no parse, no rounding), and a night's points are read back by the handful.
 */

/** The runs as a BLOB; null for none (a verdict's value has no runs of its own). */
export function encodeSamples(samples: readonly number[] | null): Uint8Array | null {
  if (samples === null || samples.length === 0) return null
  const view = new DataView(new ArrayBuffer(samples.length * 8))
  for (const [i, v] of samples.entries()) view.setFloat64(i * 8, v, true)
  return new Uint8Array(view.buffer)
}

/**
 * The runs of a stored BLOB; null for NULL.
 * @throws Error naming the byte length when the BLOB is not whole float64s (a damaged file, never one we wrote).
 */
export function decodeSamples(blob: Uint8Array | null): number[] | null {
  if (blob === null) return null
  if (blob.byteLength % 8 !== 0) throw new Error(`a samples BLOB of ${blob.byteLength} bytes is not whole float64s`)
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength)
  return Array.from({ length: blob.byteLength / 8 }, (_, i) => view.getFloat64(i * 8, true))
}

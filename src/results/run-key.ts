/**
 * A run's key: everything that must be equal for a kept run to stand for one measured now (the input's bytes, the
 * target and its version, the settings that shape a run, the GPUs and driver, the version of the code that measures).
 * Keys are plain JSON objects; what goes into one is src/engine/run-keys.ts's business, comparing and naming what
 * differs is this file's.
 */

export type RunKey = Record<string, unknown>

/** A value shown in a difference: long strings (hashes, UUID lists) cut to stay one readable line. */
function shown(value: unknown): string {
  if (value === undefined) return 'absent'
  // JSON.stringify gives undefined for what JSON cannot hold (a function): shown as JavaScript writes it.
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))
  return text.length > 40 ? `${text.slice(0, 37)}...` : text
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function walk(stored: unknown, current: unknown, path: string, out: string[]): void {
  if (isPlainObject(stored) && isPlainObject(current)) {
    const names = [...new Set([...Object.keys(stored), ...Object.keys(current)])].sort()
    // Own fields only: a field named like an inherited one (`toString`) is absent where the object lacks it.
    const own = (o: Record<string, unknown>, name: string) => (Object.hasOwn(o, name) ? o[name] : undefined)
    for (const name of names) walk(own(stored, name), own(current, name), path ? `${path}.${name}` : name, out)
    return
  }
  if (JSON.stringify(stored) !== JSON.stringify(current))
    out.push(`${path || 'key'} (was ${shown(stored)}, now ${shown(current)})`)
}

/**
 * What differs between a stored key and the current one, one phrase per differing field (`driver (was 580.1, now
 * 580.2)`), in a stable order; empty when they are equal.
 */
export function keyDifferences(stored: RunKey, current: RunKey): string[] {
  const out: string[] = []
  walk(stored, current, '', out)
  return out
}

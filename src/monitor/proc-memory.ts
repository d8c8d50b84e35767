/**
 * A process's host memory from /proc, read asynchronously (the libuv thread pool: neither the main thread nor the
 * sampling worker waits on it). Two files, two costs:
 * - /proc/<pid>/status `VmRSS`: a counter the kernel keeps, so a read costs the same whatever the process holds (~40
 *   us here). Read every time.
 * - /proc/<pid>/smaps_rollup `Pss`: the kernel walks the process's page tables to compute it, so its cost grows with
 *   what the process maps (14-23 ms for a 1 GiB Python process on this 2-core box: ~0.5 s for a 30 GB ESM-2 worker),
 *   and the walk holds the target's mmap lock. Read rarely (host-memory.ts budgets it).
 * Why PSS at all: a forked DataLoader worker maps its parent's pages copy-on-write, and its VmRSS counts every one of
 * them, so the VmRSS of a parent and its 4 workers summed counts those pages 5 times. PSS charges a page shared by n
 * processes 1/n to each, so PSS summed over a tree counts each page once: the figure to set against the host's RAM.
 * VmRSS stays the figure of one process (what it would hold alone).
 */
import { readFile } from 'node:fs/promises'

const KIB = 1024

/**
 * The sizes in `text` (the `Name:   123 kB` lines of /proc/<pid>/status or smaps_rollup), in bytes, for the names
 * asked for; a name absent, or not a whole number of kB, is missing from the result. Never throws.
 */
export function parseProcSizes<N extends string>(text: string, names: readonly N[]): Partial<Record<N, number>> {
  const found: Partial<Record<N, number>> = {}
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z_()]+):\s+(\d+) kB\s*$/.exec(line)
    if (!match) continue
    const name = match[1] as N
    const kib = Number(match[2])
    if (names.includes(name) && !(name in found) && Number.isSafeInteger(kib * KIB)) found[name] = kib * KIB
  }
  return found
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8')
  } catch {
    return null // gone (ENOENT, ESRCH) or not ours to read: absent, never an error
  }
}

/** VmRSS of `pid` in bytes; null when the process is gone, a zombie (no VmRSS line) or unreadable. */
export async function readRssBytes(pid: number): Promise<number | null> {
  const text = await readText(`/proc/${pid}/status`)
  return text === null ? null : (parseProcSizes(text, ['VmRSS']).VmRSS ?? null)
}

/**
 * PSS of `pid` in bytes and how long the read took; pssBytes null when the kernel has no smaps_rollup (before 4.14),
 * the process is gone or it is not ours to read.
 */
export async function readPssBytes(pid: number): Promise<{ pssBytes: number | null; readMs: number }> {
  const startMs = performance.now()
  const text = await readText(`/proc/${pid}/smaps_rollup`)
  const pssBytes = text === null ? null : (parseProcSizes(text, ['Pss']).Pss ?? null)
  return { pssBytes, readMs: performance.now() - startMs }
}

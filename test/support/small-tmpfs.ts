// A real small filesystem for full-disk and read-only cases: a tmpfs of a few hundred KiB that root mounts here
// (`mount -t tmpfs -o size=N`), unmounted and removed when the test file ends. Where it cannot be mounted (not root,
// a container without CAP_SYS_ADMIN) the caller skips with the one reason this gives.
import { execFileSync } from 'node:child_process'
import { closeSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { atFileEnd, tempDirUntilFileEnd } from './temp-dir.ts'

export type SmallTmpfs = { dir: string; unavailable?: undefined } | { dir?: undefined; unavailable: string }

const FILLER = 'filler.bin'

/** Mounts a tmpfs of `sizeBytes` on a fresh directory; `unavailable` says why not. */
export function mountSmallTmpfs(prefix: string, sizeBytes: number): SmallTmpfs {
  if (process.getuid?.() !== 0) return { unavailable: 'mounting a tmpfs needs root (mount -t tmpfs)' }
  const dir = tempDirUntilFileEnd(prefix)
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes},mode=0755`, 'tmpfs', dir], { stdio: 'pipe' })
  } catch (error) {
    const said = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim()
    return { unavailable: `mount -t tmpfs was refused here: ${said.split('\n')[0]}` }
  }
  // Registered after the temp dir's removal, so it runs first (the file-end hooks run in reverse).
  atFileEnd(() => execFileSync('umount', [dir], { stdio: 'pipe' }))
  return { dir }
}

/** Bytes this user may still write on the filesystem of `dir`. */
export function freeBytes(dir: string): number {
  const fs = statfsSync(dir)
  return fs.bavail * fs.bsize
}

/**
 * Fills the filesystem of `dir` with one file until `leaveBytes` (rounded down to its blocks) are free; 0 fills it
 * until the kernel says ENOSPC. Returns what is free afterwards.
 */
export function fillUntilFree(dir: string, leaveBytes = 0): number {
  const block = statfsSync(dir).bsize
  const chunk = Buffer.alloc(block, 0x5a)
  const fd = openSync(join(dir, FILLER), 'a')
  try {
    while (freeBytes(dir) - block >= leaveBytes) writeSync(fd, chunk)
    if (leaveBytes === 0)
      for (;;)
        try {
          writeSync(fd, chunk.subarray(0, 512))
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break
          throw error
        }
  } finally {
    closeSync(fd)
  }
  return freeBytes(dir)
}

/** Removes what `fillUntilFree` wrote. */
export function unfill(dir: string): void {
  rmSync(join(dir, FILLER), { force: true })
}

/** Remounts the tmpfs at `dir` read-only (writes then fail with EROFS, for root too). */
export function remountReadOnly(dir: string): void {
  execFileSync('mount', ['-o', 'remount,ro', dir], { stdio: 'pipe' })
}

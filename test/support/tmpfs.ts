// A real small file system for the fault tests of issue 32 (a full disk, a read-only place): a tmpfs of a given size
// mounted on a fresh temp directory, unmounted when the test file ends (before the directory is removed). Mounting
// needs root (CAP_SYS_ADMIN); where it is refused, the reason comes back instead, for the test to skip with it.
import { spawnSync } from 'node:child_process'
import { execa } from 'execa'
import { atFileEnd, tempDirUntilFileEnd } from './temp-dir.ts'

export type Tmpfs = { dir: string; problem: null } | { dir: null; problem: string }

/**
 * A tmpfs of `sizeBytes` (rounded up to whole pages by the kernel) at a fresh directory; `readOnly` mounts it so.
 * Unmounted at the file's end (atFileEnd runs cleanups newest first: the unmount before the directory's removal).
 */
export async function mountTmpfs(
  prefix: string,
  sizeBytes: number,
  options: { readOnly?: boolean } = {},
): Promise<Tmpfs> {
  const dir = tempDirUntilFileEnd(prefix)
  const flags = [`size=${sizeBytes}`, ...(options.readOnly ? ['ro'] : [])].join(',')
  const mounted = await execa('mount', ['-t', 'tmpfs', '-o', flags, 'tmpfs', dir], { reject: false })
  if (mounted.exitCode !== 0) {
    const why = (mounted.stderr || mounted.shortMessage || '').split('\n')[0]
    return { dir: null, problem: `cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN): ${why}` }
  }
  atFileEnd(() => {
    spawnSync('umount', [dir])
  })
  return { dir, problem: null }
}

/** Sets a mounted tmpfs's size (not below what it holds): a test sizes the disk to what it wrote there. */
export async function resizeTmpfs(dir: string, sizeBytes: number): Promise<void> {
  await execa('mount', ['-o', `remount,size=${sizeBytes}`, dir])
}

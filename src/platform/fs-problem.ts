/**
 * What went wrong with a file, in words and with its errno code, without the path: the caller names the place (Node's
 * messages name the path a syscall was given, which is often a temporary file of ours, and say nothing of some: a
 * write on a full disk reads "ENOSPC: no space left on device, write"). A full disk, a read-only place and a denied
 * one are each named as what they are.
 */
import { escapeControls } from './one-line.ts'

const WORDS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOENT: 'no such file or directory',
  ENOTDIR: 'a part of the path is not a directory',
  EISDIR: 'is a directory',
  EEXIST: 'already exists',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  EIO: 'input/output error',
  EFBIG: 'file too large',
  ENXIO: 'no such device or address',
  EBUSY: 'device or resource busy',
}

/** The errno code of an fs error, looked for along its `cause` chain (our writers wrap the fs error). */
export function fsErrorCode(error: unknown): string | null {
  for (let at = error, depth = 0; at instanceof Error && depth < 8; at = at.cause, depth++) {
    const code = (at as NodeJS.ErrnoException).code
    if (typeof code === 'string' && /^E[A-Z0-9]+$/.test(code)) return code
  }
  return null
}

/** e.g. `no space left on the device (ENOSPC)`; an error without an errno code gives its message, one line. */
export function fsProblem(error: unknown): string {
  const code = fsErrorCode(error)
  if (code !== null) return WORDS[code] ? `${WORDS[code]} (${code})` : code
  return escapeControls(error instanceof Error ? error.message : String(error))
}

/**
 * Variables that name a file or a directory: what must be there (or may be absent) for the reader to use it. Only the
 * kind of thing at the path is checked here; what a file holds (thresholds, FASTA) is checked by its own reader.
 */
import { type Stats, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { SettingError, variableInput } from '../platform/setting-error.ts'
import type { Setting } from './env-parsers.ts'

type Want = 'file' | 'directory' | 'either'

function statOf(path: string): Stats | NodeJS.ErrnoException {
  try {
    return statSync(path)
  } catch (error) {
    return error as NodeJS.ErrnoException
  }
}

const kindOf = (stats: Stats) => (stats.isDirectory() ? 'directory' : stats.isFile() ? 'file' : 'special file')

/**
 * A path checked against what its reader needs: `want` is what must be there; `mayBeAbsent` lets a reader create it
 * (a results directory, a history database). Returns the absolute path.
 */
export function pathSetting(what: string, want: Want, mayBeAbsent: boolean, fix: string): Setting<string> {
  return {
    what,
    parse(raw, name) {
      const path = resolve(raw)
      const found = statOf(path)
      const refuse = (problem: string) => new SettingError(variableInput(name, raw), problem, fix)
      if (found instanceof Error) {
        if (found.code === 'ENOENT' && mayBeAbsent) return path
        throw refuse(found.code === 'ENOENT' ? 'no such file or directory' : `cannot be read (${found.code})`)
      }
      const kind = kindOf(found)
      if (want !== 'either' && kind !== want) throw refuse(`is a ${kind}, not a ${want}`)
      if (want === 'either' && kind === 'special file') throw refuse('is neither a file nor a directory')
      return path
    },
  }
}

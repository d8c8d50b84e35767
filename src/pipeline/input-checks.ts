import { constants } from 'node:fs'
import { access, stat } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * Checks a run's paths before anything is spawned, so bad input gives a reason naming the path instead of a
 * Python traceback. Returns null when both are usable, else the reason.
 */
export async function checkRunPaths(input: string, outputDir: string): Promise<string | null> {
  const inputStat = await stat(input).catch((error: NodeJS.ErrnoException) => error)
  if (inputStat instanceof Error) return `input file cannot be read: ${input} (${inputStat.code ?? inputStat.message})`
  if (!inputStat.isFile()) return `input is not a regular file: ${input}`
  const readable = await access(input, constants.R_OK).then(
    () => true,
    () => false,
  )
  if (!readable) return `input file is not readable: ${input}`
  return checkOutputDir(outputDir)
}

async function checkOutputDir(outputDir: string): Promise<string | null> {
  const outStat = await stat(outputDir).catch((error: NodeJS.ErrnoException) => error)
  let target = outputDir
  if (outStat instanceof Error) {
    if (outStat.code !== 'ENOENT')
      return `output directory is unusable: ${outputDir} (${outStat.code ?? outStat.message})`
    // Not there yet: the target creates it, so its nearest existing ancestor must be a writable directory.
    target = dirname(outputDir)
    for (let s = await stat(target).catch(() => null); s === null && target !== dirname(target); ) {
      target = dirname(target)
      s = await stat(target).catch(() => null)
    }
    const parent = await stat(target).catch(() => null)
    if (!parent?.isDirectory()) return `output directory cannot be created: ${outputDir} (${target} is not a directory)`
  } else if (!outStat.isDirectory()) return `output directory path is not a directory: ${outputDir}`
  const writable = await access(target, constants.W_OK | constants.X_OK).then(
    () => true,
    () => false,
  )
  return writable ? null : `output directory is not writable: ${target}`
}

/**
 * The one writer of the monitor log. Each call appends whole lines with a single write(2) on an O_APPEND descriptor,
 * so what a tick produced is in the kernel before the next tick starts: a kill -9 of the process loses at most the
 * tick being written, and never leaves a half line behind earlier complete ones.
 */
import { closeSync, openSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { makeDirsSync } from '../platform/make-dirs.ts'
import type { MonitorRecord } from './records.ts'

export class JsonlWriter {
  readonly path: string
  #fd: number | null

  /** Opens (creating parent folders) `path` for appending. @throws the fs error, naming the path. */
  constructor(path: string) {
    this.path = path
    makeDirsSync(dirname(path))
    this.#fd = openSync(path, 'a')
  }

  /** Appends one line per record. @throws Error after close(). */
  write(records: readonly MonitorRecord[]): void {
    if (this.#fd === null) throw new Error(`monitor log ${this.path} written after close()`)
    if (records.length === 0) return
    let text = ''
    for (const record of records) text += `${JSON.stringify(record)}\n`
    writeSync(this.#fd, text)
  }

  /** Closes the file; later calls do nothing. */
  close(): void {
    if (this.#fd === null) return
    closeSync(this.#fd)
    this.#fd = null
  }
}

/** `logs/gpu_metrics_<timestamp>.jsonl` under `dir`, the timestamp in UTC with `-` for `:` (file-name safe). */
export function defaultLogPath(dir = 'logs', now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/:/g, '-')
    .replace(/\.\d+Z$/, 'Z')
  return `${dir}/gpu_metrics_${stamp}.jsonl`
}

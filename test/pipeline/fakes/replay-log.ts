/**
 * Test support: replays what a pipeline wrote (test/fixtures/virnucpro/: stdout and stderr, byte for byte) as a real
 * process, each write at its original moment with the time compressed `REPLAY_SPEEDUP` times, then writes the two
 * result files a completed run leaves (as test/pipeline/fakes/noop_target.sh) and exits 0.
 *
 * Usage: `node replay-log.ts predict INPUT -o OUTPUT_DIR ...` with REPLAY_STDOUT, REPLAY_STDERR (files) and
 * REPLAY_SPEEDUP in the environment. The writes are the pipeline's own: a logged line (`...\n`), a tqdm redraw (`\r`
 * and the bar, no line end), a log line written while a bar is shown (glued to it, as its own write). Each is timed by
 * its stamp (`YYYY-mm-dd HH:MM:SS[,mmm]`); a redraw by its bar's first redraw plus tqdm's elapsed seconds; anything
 * else by what came before it in its stream. Stamps of whole seconds leave the order inside one second to the files.
 */
import { mkdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs'
import { basename, extname, join } from 'node:path'

interface Write {
  fd: 1 | 2
  bytes: Buffer
  atMs: number
}

const STAMP = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:,\d{3})?/
const ELAPSED = /\| *\d+\/\d+ \[(?:(\d+):)?(\d\d):(\d\d)</

const stampMs = (text: string): number | null => {
  const m = STAMP.exec(text)
  return m && m.index === 0 ? Date.parse(`${m[0].replace(' ', 'T').replace(',', '.')}Z`) : null
}

/** The stream's writes, as the pipeline made them: a `\r` starts one, a `\n` ends one, a stamp after a bar starts one. */
function splitWrites(text: string): string[] {
  const pieces = text.split(/(?<=\n)|(?=\r)/).filter((p) => p !== '')
  return pieces.flatMap((p) => {
    const at = p.startsWith('\r') ? p.search(STAMP) : -1
    return at > 0 ? [p.slice(0, at), p.slice(at)] : [p]
  })
}

/** Each write of one stream with its moment (ms on the log's clock); null where nothing before it gives one. */
function timeWrites(fd: 1 | 2, text: string): { fd: 1 | 2; text: string; atMs: number | null }[] {
  let lastMs: number | null = null
  // Per bar (its label): when it was first drawn.
  const bars = new Map<string, number | null>()
  return splitWrites(text).map((piece) => {
    const elapsed = piece.startsWith('\r') ? ELAPSED.exec(piece) : null
    let atMs = stampMs(piece)
    if (elapsed) {
      const s = Number(elapsed[1] ?? 0) * 3600 + Number(elapsed[2]) * 60 + Number(elapsed[3])
      const label = piece.slice(1, piece.indexOf(':'))
      if (s === 0 || !bars.has(label)) bars.set(label, lastMs)
      const startMs = bars.get(label) ?? null
      atMs = startMs === null ? null : startMs + s * 1000
    }
    // Order within the stream is the file's: a moment never goes back (a worker's ms stamp beside whole seconds).
    if (atMs !== null && lastMs !== null) atMs = Math.max(atMs, lastMs)
    lastMs = atMs ?? lastMs
    return { fd, text: piece, atMs: atMs ?? lastMs }
  })
}

function schedule(stdout: string, stderr: string): Write[] {
  const all = [...timeWrites(1, stdout), ...timeWrites(2, stderr)]
  const first = Math.min(...all.flatMap((w) => (w.atMs === null ? [] : [w.atMs])))
  // A stream's writes before any moment it has (stderr's first warnings) go at the start: the order in their stream holds.
  const timed = all.map((w, i) => ({ fd: w.fd, bytes: Buffer.from(w.text, 'latin1'), atMs: w.atMs ?? first, i }))
  return timed.sort((a, b) => a.atMs - b.atMs || a.i - b.i).map(({ i: _, ...w }) => ({ ...w, atMs: w.atMs - first }))
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function main(): Promise<number> {
  const [, input, , out] = process.argv.slice(2)
  const speedup = Number(process.env.REPLAY_SPEEDUP ?? '1')
  const read = (name: string) => (process.env[name] ? readFileSync(process.env[name]!, 'latin1') : '')
  const writes = schedule(read('REPLAY_STDOUT'), read('REPLAY_STDERR'))
  const t0 = performance.now()
  for (const w of writes) {
    const waitMs = w.atMs / speedup - (performance.now() - t0)
    if (waitMs > 0) await sleep(waitMs)
    writeSync(w.fd, w.bytes)
  }
  const dir = join(out!, `${basename(input!, extname(input!))}_merged`)
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    join(dir, 'prediction_results.txt'),
    'Sequence_ID\tPrediction\tscore1\tscore2\ns_chunk_1F1\tvirus\t0.1\t0.9\n',
  )
  writeFileSync(
    join(dir, 'prediction_results_highestscore.csv'),
    'Modified_ID\tIs_Virus\tmax_score_0\tmax_score_1\ns_chunk_1\tTrue\t0.1\t0.9\n',
  )
  return 0
}

process.exitCode = await main()

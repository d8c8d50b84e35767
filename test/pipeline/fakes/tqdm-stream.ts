/**
 * A target for the line reader's long-run test: what a pipeline stage with a tqdm bar writes in HOURS hours at RATE
 * redraws a second (issue 31: tqdm redraws with `\r` and no `\n`, so the whole stage is one physical line of many MB).
 * Usage: node tqdm-stream.ts predict INPUT -o OUT --force [--hours H] [--rate-hz R]
 *
 * stdout: the stage's start and end lines and the PIPELINE SUMMARY, as the main process logs them. stderr: the bar,
 * `\r` before each redraw as tqdm writes it, and every 10 minutes of the stream a worker's batch line written the way
 * tqdm.write does (bar cleared with `\r`, the line, the bar redrawn): on the bar's physical line. Written in blocks of
 * about 64 KiB with blocking writes, so a reader that falls behind holds the target on its full pipe.
 */
import { mkdirSync, writeFileSync, writeSync } from 'node:fs'
import { basename, join } from 'node:path'

const args = process.argv.slice(2)
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name)
  return at >= 0 ? Number(args[at + 1]) : fallback
}
const [, input, , outputDir] = args as [string, string, string, string]
const hours = option('--hours', 10)
const rateHz = option('--rate-hz', 10)
const total = Math.round(hours * 3600 * rateHz)

const stamp = '2026-11-22 00:00:00'
const log = (message: string) => `${stamp} - virnucpro.pipeline.prediction - INFO - ${message}\n`
const hms = (s: number) =>
  [Math.floor(s / 3600), Math.floor((s % 3600) / 60), Math.floor(s % 60)]
    .map((v) => String(v).padStart(2, '0'))
    .join(':')

/** One redraw, as tqdm's default format prints it (`{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}]`). */
function redraw(n: number): string {
  const fraction = n / total
  const filled = Math.floor(fraction * 20)
  const elapsedS = n / rateHz
  const bar = `${'█'.repeat(filled)}${' '.repeat(20 - filled)}`
  return `\rDNABERT-S: ${String(Math.floor(fraction * 100)).padStart(3)}%|${bar}| ${n}/${total} [${hms(elapsedS)}<${hms((total - n) / rateHz)}, ${rateHz.toFixed(2)}it/s]`
}

const BATCH_EVERY = 10 * 60 * rateHz
function batchLine(i: number): string {
  const done = i * BATCH_EVERY
  return `${stamp},123 - Worker 0 - virnucpro.pipeline.gpu_worker - INFO - Batch ${i}: ${done}/${total} (${((done / total) * 100).toFixed(1)}%) | 91.2% pack eff, 16,474 tok/s, 321.5 seq/s, ETA: ${hms((total - done) / rateHz)}\n`
}

writeSync(1, log('=== Stage 5: DNABERT-S Feature Extraction ==='))
let block = ''
for (let n = 0; n <= total; n++) {
  block += redraw(n)
  if (n > 0 && n % BATCH_EVERY === 0) block += `\r${' '.repeat(80)}\r${batchLine(n / BATCH_EVERY)}${redraw(n)}`
  if (block.length >= 64 * 1024) {
    writeSync(2, block)
    block = ''
  }
}
writeSync(2, `${block}\n`)
const durationS = total / rateHz
const summary = [
  `  DNABERT-S Feature Extraction completed in ${durationS.toFixed(1)}s [sequences: ${total.toLocaleString('en-US')}]`,
  '='.repeat(80),
  'PIPELINE SUMMARY',
  '='.repeat(80),
  `Total wall time: ${hms(durationS)} (${durationS.toFixed(1)}s)`,
  'Stages:',
  `  1. DNABERT-S Feature Extraction ....  ${durationS.toFixed(1).padStart(6)}s (100.0%)`,
  'Key metrics:',
  `  Sequences processed: ${total.toLocaleString('en-US')}`,
  '='.repeat(80),
]
writeSync(1, summary.map(log).join(''))

const stem = basename(input).replace(/\.[^.]*$/, '')
const merged = join(outputDir, `${stem}_merged`)
mkdirSync(merged, { recursive: true })
writeFileSync(
  join(merged, 'prediction_results.txt'),
  'Sequence_ID\tPrediction\tscore1\tscore2\ns_chunk_1F1\tvirus\t0.1\t0.9\n',
)
writeFileSync(
  join(merged, 'prediction_results_highestscore.csv'),
  'Modified_ID\tIs_Virus\tmax_score_0\tmax_score_1\ns_chunk_1\tTrue\t0.1\t0.9\n',
)

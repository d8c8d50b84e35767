import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'

/**
 * Streaming readers for VirNucPro's result files (docs/UPSTREAM.md "Outputs"). Both are tab-separated with a header
 * row; a bad row stops the read with an OutputFormatError naming the file and the 1-based line.
 */

export interface PredictionRow {
  id: string
  label: 'virus' | 'others'
  /** `score1`, `score2` as written. */
  scores: [number, number]
}

export interface HighestScoreRow {
  id: string
  isVirus: boolean
  maxScores: [number, number]
}

export const PREDICTION_HEADER = ['Sequence_ID', 'Prediction', 'score1', 'score2'] as const
export const HIGHEST_SCORE_HEADER = ['Modified_ID', 'Is_Virus', 'max_score_0', 'max_score_1'] as const

/** A result file that does not follow the upstream format; `file` and `line` (1-based) say where. */
export class OutputFormatError extends Error {
  override name = 'OutputFormatError'
  readonly file: string
  readonly line: number
  constructor(file: string, line: number, message: string, options?: ErrorOptions) {
    super(`${file}:${line}: ${message}`, options)
    this.file = file
    this.line = line
  }
}

function parseScore(text: string | undefined, column: string): number {
  const value = Number(text)
  if (text === undefined || text.trim() === '' || !Number.isFinite(value))
    throw new Error(`${column} is not a finite number: '${text ?? ''}'`)
  return value
}

function parseBool(text: string): boolean {
  if (/^(true|1)$/i.test(text)) return true
  if (/^(false|0)$/i.test(text)) return false
  throw new Error(`Is_Virus must be True or False, got '${text}'`)
}

async function* readTsv<T>(
  file: string,
  header: readonly string[],
  parseRow: (cells: string[]) => T,
): AsyncGenerator<T> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY })
  let lineNo = 0
  let blankAt = 0
  for await (const line of lines) {
    lineNo++
    if (lineNo === 1) {
      if (line !== header.join('\t'))
        throw new OutputFormatError(file, 1, `expected header '${header.join('\\t')}', got '${line}'`)
      continue
    }
    if (line === '') {
      blankAt ||= lineNo
      continue
    }
    if (blankAt) throw new OutputFormatError(file, blankAt, 'blank line before the end of the file')
    const cells = line.split('\t')
    if (cells.length !== header.length)
      throw new OutputFormatError(file, lineNo, `expected ${header.length} tab-separated fields, got ${cells.length}`)
    try {
      yield parseRow(cells)
    } catch (error) {
      if (error instanceof OutputFormatError) throw error
      throw new OutputFormatError(file, lineNo, (error as Error).message, { cause: error })
    }
  }
  if (lineNo === 0) throw new OutputFormatError(file, 1, 'file is empty (no header row)')
}

/**
 * Streams `prediction_results.txt` rows.
 * @throws OutputFormatError on a bad header or row; the file system error (ENOENT, EACCES) when it cannot be read.
 */
export function readPredictionResults(file: string): AsyncGenerator<PredictionRow> {
  return readTsv(file, PREDICTION_HEADER, ([id, label, s1, s2]) => {
    if (!id) throw new Error('Sequence_ID is empty')
    if (label !== 'virus' && label !== 'others') throw new Error(`Prediction must be virus or others, got '${label}'`)
    return { id, label, scores: [parseScore(s1, 'score1'), parseScore(s2, 'score2')] }
  })
}

/**
 * Streams `prediction_results_highestscore.csv` rows (tab-separated despite the name).
 * @throws OutputFormatError on a bad header or row; the file system error when it cannot be read.
 */
export function readHighestScores(file: string): AsyncGenerator<HighestScoreRow> {
  return readTsv(file, HIGHEST_SCORE_HEADER, ([id, isVirus, s0, s1]) => {
    if (!id) throw new Error('Modified_ID is empty')
    return {
      id,
      isVirus: parseBool(isVirus!),
      maxScores: [parseScore(s0, 'max_score_0'), parseScore(s1, 'max_score_1')],
    }
  })
}

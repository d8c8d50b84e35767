import { access } from 'node:fs/promises'
import { join, parse } from 'node:path'
import { OutputFormatError, readHighestScores, readPredictionResults } from './output-readers.ts'

/** What a run left in its output directory, already read through (counts only; re-read rows with the readers). */
export type OutputsFound =
  | {
      state: 'found'
      dir: string
      predictions: { path: string; rows: number; virus: number; others: number }
      highestScores: { path: string; rows: number; virus: number }
    }
  | { state: 'missing'; dir: string; reason: string }
  | { state: 'malformed'; dir: string; reason: string }

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  )
}

/**
 * Upstream writes its results to `{output}/{stem}_merged/` (stem = input name without its last extension); a target
 * that writes them straight into `{output}/` is accepted too. When neither has them, the upstream place is named.
 */
export async function findResultsDir(outputDir: string, inputPath: string): Promise<string> {
  const merged = join(outputDir, `${parse(inputPath).name}_merged`)
  if (await exists(merged)) return merged
  return (await exists(join(outputDir, 'prediction_results.txt'))) ? outputDir : merged
}

async function countPredictions(path: string) {
  let rows = 0
  let virus = 0
  for await (const row of readPredictionResults(path)) {
    rows++
    if (row.label === 'virus') virus++
  }
  return { path, rows, virus, others: rows - virus }
}

async function countHighest(path: string) {
  let rows = 0
  let virus = 0
  for await (const row of readHighestScores(path)) {
    rows++
    if (row.isVirus) virus++
  }
  return { path, rows, virus }
}

/** Finds and reads both result files; a missing or malformed file becomes a state with its reason, never a throw. */
export async function collectOutputs(outputDir: string, inputPath: string): Promise<OutputsFound> {
  const dir = await findResultsDir(outputDir, inputPath)
  const predictionsPath = join(dir, 'prediction_results.txt')
  const highestPath = join(dir, 'prediction_results_highestscore.csv')
  for (const path of [predictionsPath, highestPath])
    if (!(await exists(path))) return { state: 'missing', dir, reason: `output file not found: ${path}` }
  try {
    const predictions = await countPredictions(predictionsPath)
    const highestScores = await countHighest(highestPath)
    return { state: 'found', dir, predictions, highestScores }
  } catch (error) {
    const reason =
      error instanceof OutputFormatError ? error.message : `cannot read outputs: ${(error as Error).message}`
    return { state: 'malformed', dir, reason }
  }
}

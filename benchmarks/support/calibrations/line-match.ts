/**
 * The calibration of the log parser: every line matched plainly against the two patterns that matter most in a
 * pipeline log (a stage start and a batch line), with no splitting into time/logger/level, no events, no state.
 */
const STAGE_START = /=== Stage (\d+): (.+) ===$/
const BATCH = /Batch (\d+): ([\d,]+)\/([\d,]+) \((\d+(?:\.\d+)?)%\)/

/** How many lines matched either pattern (returned so the work cannot be skipped). */
export function matchLines(lines: readonly string[]): number {
  let matched = 0
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k]!
    if (STAGE_START.exec(line) || BATCH.exec(line)) matched++
  }
  return matched
}

/**
 * "Did you mean" for the CLI: the candidate nearest to a mistyped command or option, by edit distance, when it is near
 * enough to be the likely intent. One place for every command, so all of them suggest alike.
 */

/** Levenshtein distance: the fewest single-character insertions, deletions or substitutions turning `a` into `b`. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution))
    }
    previous = current
  }
  return previous[b.length]!
}

/**
 * The candidate nearest to `input`, or undefined when none is near: within 40% of the input's length (at least 1 edit),
 * so `--interval` finds `--interval-ms` and `frobnicate` finds nothing. Leading dashes are not counted. Ties go to the
 * earlier candidate.
 */
export function closestMatch(input: string, candidates: readonly string[]): string | undefined {
  const bare = (name: string) => name.replace(/^-+/, '')
  const word = bare(input)
  const maxDistance = Math.max(1, Math.floor(word.length * 0.4))
  let best: { candidate: string; distance: number } | undefined
  for (const candidate of candidates) {
    const distance = editDistance(word, bare(candidate))
    if (distance <= maxDistance && (best === undefined || distance < best.distance)) best = { candidate, distance }
  }
  return best?.candidate
}

/**
 * Why JSON.parse refused a text, in words that quote none of it. V8's message for an unexpected token quotes the
 * bytes around it (`Unexpected token 'T', "TOP SECRET"... is not valid JSON`): a file that is no JSON, such as one a
 * link leads to, would have its first characters copied into every report that names the file. V8's other messages
 * are fixed text with a place (`Unterminated string in JSON at position 31 (line 1 column 32)`): those are kept.
 */

/** V8's messages that quote nothing of the input: fixed words, then the place. */
const PLACED = /^([A-Za-z ',:}\]-]+?)(?: in JSON)? at position (\d+)(?: \(line (\d+) column (\d+)\))?$/
const CUT = ' (cut short while written?)'

export function jsonSyntaxProblem(error: unknown, text: string): string {
  if (text.trim() === '') return 'empty: no JSON in it'
  const message = error instanceof Error ? error.message : ''
  if (message === 'Unexpected end of JSON input') return `not valid JSON: it ends early${CUT}`
  const placed = PLACED.exec(message)
  if (placed) {
    const what = placed[1]!.charAt(0).toLowerCase() + placed[1]!.slice(1)
    const where = placed[3] ? `line ${placed[3]}, column ${placed[4]}` : `character ${Number(placed[2]) + 1}`
    // Stopped at the end of the text (`{"id"` cut after a key): the text was cut, whatever V8 expected next.
    const atEnd = what.startsWith('unterminated') || Number(placed[2]) >= text.trimEnd().length
    return `not valid JSON: ${what} at ${where}${atEnd ? CUT : ''}`
  }
  return 'not valid JSON: an unexpected character'
}

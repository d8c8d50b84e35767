/**
 * Text shown inside a one-line message (a refusal, a file's reason in a report): control characters escaped (`\n`,
 * `\t`, `\x85`-style `\u0085`), so that a value quoted from a corrupt file, such as V8's JSON.parse message that
 * quotes the bytes around the bad token, cannot break the line or reach a terminal as a control code.
 */
export function escapeControls(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this escapes.
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => {
    if (c === '\n') return '\\n'
    if (c === '\t') return '\\t'
    if (c === '\r') return '\\r'
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
  })
}

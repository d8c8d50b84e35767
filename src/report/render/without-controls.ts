/**
 * The last step of every report file: no control character reaches a report, whatever a stored string held (a stage
 * name with a NUL from the target's log, an ESC from a record edited by hand). Done once here, on each rendered file,
 * so that a renderer that inserts a stored string without escaping (an SVG label, a note, a new section) cannot
 * carry one through.
 * - Text files (markdown, HTML) keep newline and tab, their own layout; every other control character (C0, DEL, C1)
 *   is written as its escape, `\u0000`, visible where it was.
 * - JSON files: JSON.stringify already escapes C0 inside strings (a raw newline or tab between tokens is layout), but
 *   leaves DEL and C1 raw; they are written as `\u007f`-style escapes, which read back as the same string. Outside a
 *   string JSON has no such character.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes.
const TEXT_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g
const JSON_CONTROLS = /[\u007f-\u009f]/g

const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`

/** `content` of the report file `name` with its control characters escaped, as the module comment says. */
export function withoutControlBytes(name: string, content: string): string {
  return content.replace(name.endsWith('.json') ? JSON_CONTROLS : TEXT_CONTROLS, escaped)
}

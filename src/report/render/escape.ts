/** Escaping for text that came from logs, record names or IDs, before it enters HTML or markdown. */

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML[c] as string)
}

const MARKDOWN_HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' }

/**
 * Text safe inside a markdown table cell and in running text: markdown punctuation that could open code, links,
 * emphasis or a new cell is backslash-escaped, then the characters that start raw HTML or an entity become entities
 * (GitHub renders raw HTML), and line breaks become spaces. In that order: escaping `#` after making entities broke
 * them (an apostrophe came out as a literal `&#39;`). Quotes need nothing in markdown text.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\\`*_{}[\]()#+!|~]/g, (c) => `\\${c}`)
    .replace(/[&<>]/g, (c) => MARKDOWN_HTML[c] as string)
    .replace(/\r?\n|\r/g, ' ')
}

/** Escaping for text that came from logs, record names or IDs, before it enters HTML or markdown. */

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML[c] as string)
}

/**
 * Text safe inside a markdown table cell and in running text: HTML-special characters become entities (GitHub renders
 * raw HTML), markdown punctuation that could open code, links, emphasis or a new cell is backslash-escaped, and line
 * breaks become spaces.
 */
export function escapeMarkdown(text: string): string {
  return escapeHtml(text)
    .replace(/[\\`*_{}[\]()#+!|~]/g, (c) => `\\${c}`)
    .replace(/\r?\n|\r/g, ' ')
}

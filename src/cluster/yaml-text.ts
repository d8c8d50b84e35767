/**
 * A small YAML writer for the Kubernetes manifest (src/ has no YAML dependency; the `yaml` package is for tests only,
 * which parse what this writes). Strings are JSON-quoted, which YAML reads back exactly, except a multi-line string of
 * plain printable text, written as a literal block so that the job's script stays readable.
 */
export type YamlValue = string | number | boolean | null | readonly YamlValue[] | { readonly [key: string]: YamlValue }

// Literal blocks keep every character as it is, but only printable text is allowed in them, and a first line that
// starts with a space would change the indentation YAML infers; a trailing newline would be stripped by `|-`.
const BLOCK_SAFE = /^[^\s][\x20-\x7e\n]*[^\n]$/

function scalar(value: string | number | boolean | null): string {
  if (typeof value === 'string') return JSON.stringify(value)
  return String(value)
}

// YAML 1.1 readers (Kubernetes' among them) take these plain words for booleans or null: such keys are quoted.
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n|~)$/i

function key(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_./-]*$/.test(name) && !RESERVED.test(name) ? name : JSON.stringify(name)
}

function isBlock(value: YamlValue): value is string {
  return typeof value === 'string' && value.includes('\n') && BLOCK_SAFE.test(value)
}

function block(value: string, indent: string): string {
  return `|-\n${value
    .split('\n')
    .map((line) => (line === '' ? '' : `${indent}  ${line}`))
    .join('\n')}`
}

function isEmpty(value: YamlValue): boolean {
  return value !== null && typeof value === 'object' && Object.keys(value).length === 0
}

function entry(prefix: string, value: YamlValue, indent: string): string {
  if (isBlock(value)) return `${prefix} ${block(value, indent)}`
  if (value === null || typeof value !== 'object') return `${prefix} ${scalar(value)}`
  if (isEmpty(value)) return `${prefix} ${Array.isArray(value) ? '[]' : '{}'}`
  return `${prefix}\n${lines(value, `${indent}  `)}`
}

function lines(value: YamlValue, indent: string): string {
  if (Array.isArray(value))
    return value
      .map((item) => {
        if (item !== null && typeof item === 'object' && !isEmpty(item))
          return `${indent}- ${lines(item, `${indent}  `).trimStart()}`
        return entry(`${indent}-`, item, indent)
      })
      .join('\n')
  return Object.entries(value as Record<string, YamlValue>)
    .map(([name, item]) => entry(`${indent}${key(name)}:`, item, indent))
    .join('\n')
}

/** `value` (an object or a list) as a YAML document. */
export function toYaml(value: YamlValue): string {
  if (isEmpty(value)) return Array.isArray(value) ? '[]\n' : '{}\n'
  return `${lines(value, '')}\n`
}

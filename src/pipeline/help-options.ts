/**
 * The options of a target's `--help`, as argparse and click print them: each option's spellings, its value's
 * placeholder, its help text with the wrapped lines joined, and the default the help states. Pure and total: any
 * string in, a list out (empty when nothing reads as an option), never an exception, in one pass over the lines.
 *
 * What reads as an option: in an options section (any heading at column 0 ending in `:`, or the text before the
 * first line at column 0), an indented line starting with `-`. Its help follows two or more spaces on the same line,
 * or on the lines indented deeper below it. The usage block, an `Examples:` section and the indented lines under
 * other text at column 0 (a description, an epilog) are skipped: they may start with `-` too (click's usage wraps a
 * description whose examples do).
 */
import { defaultOfHelp } from './help-default.ts'

export interface HelpOption {
  /** Every spelling, as printed: `['-w', '--num-workers']`; a click switch pair both: `['--cuda-streams', '--no-cuda-streams']`. */
  flags: string[]
  /** The value's placeholder (`NUM_WORKERS`, `{300,500}`, `INTEGER`); null for a switch. */
  metavar: string | null
  /** The help text, its wrapped lines joined; '' when there is none. */
  help: string
  /** The default the help states (`(default: 4)`, `(4)`, `default 2048`), as written; null when it states none. */
  default: string | null
}

/** A flag token: `-w`, `--num-workers`, `--foo=BAR` (the part after `=` is the placeholder). */
const FLAG = /^(--?[A-Za-z0-9][A-Za-z0-9_.-]*)(?:=(.*))?$/
const OPENERS = '{[(<'
const CLOSERS = '}])>'
// ANSI colour and cursor codes: a tool that colours its help even into a pipe (rich-click) prints them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what marks these codes.
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g

interface Draft {
  indent: number
  flags: string[]
  metavar: string | null
  help: string[]
}

/** Whether a line's text (indent removed) starts like an option. */
const startsOption = (body: string) => /^--?[A-Za-z0-9]/.test(body)

/**
 * Splits `text` at whitespace outside brackets (`{300,500}`, `[300|500|custom]`, `[BAR ...]` stay whole); with
 * `stopAtGap`, stops at the first run of two or more spaces outside brackets and returns the rest as `after`.
 */
function splitOutsideBrackets(text: string, stopAtGap: boolean): { tokens: string[]; after: string } {
  const tokens: string[] = []
  let depth = 0
  let token = ''
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string
    if (OPENERS.includes(c)) depth++
    else if (CLOSERS.includes(c) && depth > 0) depth--
    if (depth === 0 && (c === ' ' || c === '\t')) {
      if (stopAtGap && text[i + 1] === ' ' && tokens.length + (token ? 1 : 0) > 0) {
        if (token) tokens.push(token)
        return { tokens, after: text.slice(i).trim() }
      }
      if (token) tokens.push(token)
      token = ''
      continue
    }
    token += c
  }
  if (token) tokens.push(token)
  return { tokens, after: '' }
}

/** An option line: its spellings, placeholder and the help on the same line; null when no token is a flag. */
function parseOptionLine(body: string, indent: number): Draft | null {
  const { tokens, after } = splitOutsideBrackets(body, true)
  const flags: string[] = []
  const metavars: string[][] = []
  for (const raw of tokens) {
    const token = raw.replace(/,+$/, '')
    if (token === '' || token === '/' || token === '|') continue
    const flag = FLAG.exec(token)
    if (flag) {
      flags.push(flag[1] as string)
      metavars.push(flag[2] ? [flag[2]] : [])
    } else if (metavars.length > 0) (metavars.at(-1) as string[]).push(token)
  }
  if (flags.length === 0) return null
  // argparse repeats the placeholder after every spelling (`-w N, --num-workers N`): one is the option's.
  const metavar = metavars.find((m) => m.length > 0)?.join(' ') ?? null
  return { indent, flags: [...new Set(flags)], metavar, help: after ? [after] : [] }
}

/**
 * Joins wrapped help lines with a space, except after a word broken at its hyphen: Python's textwrap (argparse's and
 * click's wrapper) breaks `auto-detect` as `auto-` / `detect`, and keeps the hyphen.
 */
export function joinWrapped(parts: readonly string[]): string {
  let out = ''
  for (const part of parts) {
    if (part === '') continue
    if (out === '') out = part
    else out += /[A-Za-z0-9]-$/.test(out) && /^[A-Za-z0-9]/.test(part) ? part : ` ${part}`
  }
  return out
}

function finish(draft: Draft): HelpOption {
  const help = joinWrapped(draft.help)
  return { flags: draft.flags, metavar: draft.metavar, help, default: defaultOfHelp(help) }
}

const indentOf = (line: string) => line.length - line.trimStart().length

/** Every option of an argparse- or click-style help text, in the order printed. Never throws. */
export function parseHelpOptions(text: string): HelpOption[] {
  const options: HelpOption[] = []
  if (typeof text !== 'string') return options
  let skipping = false
  let current: Draft | null = null
  const close = () => {
    if (current) options.push(finish(current))
    current = null
  }
  for (const raw of text
    .replace(ANSI, '')
    .replace(/\t/g, '        ')
    .split(/\r\n|\r|\n/)) {
    const line = raw.trimEnd()
    if (line.trim() === '') {
      close()
      continue
    }
    const indent = indentOf(line)
    const body = line.slice(indent)
    if (indent === 0) {
      close()
      // A heading opens a section; other text at column 0 is a description or an epilog, whose indented lines
      // (examples of a command line) are no options until the next heading.
      skipping = /^usage:/i.test(body) || !body.endsWith(':') || /^examples?\b/i.test(body)
      continue
    }
    if (skipping) continue
    const open = current as Draft | null
    // Below an option, deeper text is its help, a line that starts with `-` included (`--resume` wrapped to a line's start).
    if (open && indent > open.indent) {
      open.help.push(body.trim())
      continue
    }
    close()
    if (startsOption(body)) current = parseOptionLine(body, indent)
  }
  close()
  return options
}

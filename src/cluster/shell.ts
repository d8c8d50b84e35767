/**
 * Shell text for the job scripts: every value a script carries goes through shellQuote, so no variable value, path or
 * argument can end a word, start a command or expand (bash reads the single-quoted form back byte for byte).
 */

/** `value` as one bash word: single-quoted, each `'` written as `'\''`. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`
}

/** A name `export NAME=...` accepts (POSIX: letters, digits, underscore, not starting with a digit). */
export function isEnvName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)
}

/**
 * Names the job script may not export: bash's own (it sets `_` and PWD itself, read-only ones abort the script, IFS
 * would re-split every unquoted expansion) and the script's own variables (task-script.ts), which an export would
 * overwrite.
 */
const RESERVED =
  /^(?:_|PWD|OLDPWD|BASH\w*|UID|EUID|PPID|SHELLOPTS|IFS|RANDOM|SRANDOM|SECONDS|LINENO|FUNCNAME|GROUPS|HISTCMD|EPOCH\w*)$/
export const SCRIPT_VARIABLES = new Set([
  'task_index',
  'task_count',
  'run_dir',
  'campaign_dir',
  'repo_dir',
  'node_exe',
  'host',
  'task',
  'status',
])

/** A name a campaign may export: a variable name, neither bash's nor the job script's own. */
export function isExportableName(name: string): boolean {
  return isEnvName(name) && !RESERVED.test(name) && !SCRIPT_VARIABLES.has(name)
}

/** `export NAME='value'` lines, sorted by name so the same campaign always renders the same script. */
export function exportLines(env: Readonly<Record<string, string>>): string[] {
  return Object.keys(env)
    .sort()
    .map((name) => `export ${name}=${shellQuote(env[name]!)}`)
}

/** `value` as one bash word, quoted only when it needs to be (for command lines people read). */
export function shellWord(value: string): string {
  return /^[A-Za-z0-9._/=:,@+-]+$/.test(value) ? value : shellQuote(value)
}

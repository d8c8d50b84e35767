import { type ExecFileSyncOptionsWithStringEncoding, execFileSync } from 'node:child_process'
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { exportLines, isExportableName, shellQuote, shellWord } from '../../src/cluster/shell.ts'
import { envMap, envValue } from './support/campaigns.ts'

/**
 * stdin from /dev/null, not Node's default pipe: Debian's bash reads ~/.bashrc even when not interactive if its stdin
 * is a socket, which Node's pipes are (socketpairs). A developer's .bashrc (here a `pyenv init`, 160 ms a shell) then
 * made the 25-shell property below take 4.9 s, and could change the very environment it checks.
 */
const BASH_OPTIONS: ExecFileSyncOptionsWithStringEncoding = { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }

/** What bash makes of `words` (each already shell text): the arguments printf received, NUL-separated. */
function bashWords(words: readonly string[]): string[] {
  const out = execFileSync('bash', ['-c', `printf '%s\\0' ${words.join(' ')}`], BASH_OPTIONS)
  return out.split('\0').slice(0, -1)
}

test('a quoted value is one word that bash reads back byte for byte, whatever it holds', () => {
  fc.assert(
    fc.property(fc.array(envValue, { minLength: 1, maxLength: 8 }), (values) => {
      expect(bashWords(values.map(shellQuote))).toEqual(values)
    }),
    { numRuns: 60 },
  )
})

test('shellWord leaves plain words bare and quotes the rest, with the same meaning', () => {
  expect(shellWord('--array=0-1')).toBe('--array=0-1')
  expect(shellWord('a b')).toBe("'a b'")
  fc.assert(
    fc.property(fc.array(envValue, { minLength: 1, maxLength: 8 }), (values) => {
      expect(bashWords(values.map(shellWord))).toEqual(values)
    }),
    { numRuns: 40 },
  )
})

test('exported variables arrive in a child process exactly as given', () => {
  fc.assert(
    fc.property(envMap, (env) => {
      const script = [...exportLines(env), 'env -0'].join('\n')
      const seen = new Map(
        execFileSync('bash', ['-c', script], { ...BASH_OPTIONS, env: { PATH: process.env.PATH } })
          .split('\0')
          .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)] as const),
      )
      for (const [name, value] of Object.entries(env)) expect(seen.get(name), name).toBe(value)
    }),
    { numRuns: 25 },
  )
})

test('names bash or the job script keep for themselves cannot be exported', () => {
  for (const name of ['_', 'PWD', 'UID', 'IFS', 'BASH_ENV', 'SHELLOPTS', 'task_index', 'run_dir', '1X', 'A-B', ''])
    expect(isExportableName(name), name).toBe(false)
  for (const name of ['VIRNUCPRO_BENCH_RUNS', 'FAKE_NVML_SCRIPT', 'PATH', '_x1'])
    expect(isExportableName(name), name).toBe(true)
})

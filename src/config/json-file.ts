import { readFileSync } from 'node:fs'
import { SNIFF_BYTES, sniffContent } from '../input/content-sniff.ts'
import { SettingError } from '../platform/setting-error.ts'

const UTF8_BOM = '\uFEFF'

/**
 * A JSON settings file read as most JSON tools read one: UTF-8, a leading byte-order mark dropped (Windows editors
 * write one). UTF-16/32 text and compressed data are named, with the fix, instead of failing as "Unexpected token".
 * @throws SettingError naming `input`, the problem and the fix (one line).
 */
export function readJsonFile(path: string, input: string): unknown {
  let bytes: Buffer
  try {
    bytes = readFileSync(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const problem = code === 'ENOENT' ? 'no such file' : `cannot be read (${(error as Error).message})`
    throw new SettingError(input, problem, 'point it at a readable JSON file, or unset it', { cause: error })
  }
  const kind = sniffContent(bytes.subarray(0, SNIFF_BYTES))
  if (kind !== 'text' && kind !== 'utf-8-bom') {
    const what = kind.startsWith('utf-') ? `${kind.toUpperCase()} text` : `${kind}-compressed data`
    throw new SettingError(input, `holds ${what}, not UTF-8 JSON`, 'save it as UTF-8 text')
  }
  let text = bytes.toString('utf8')
  if (text.startsWith(UTF8_BOM)) text = text.slice(1)
  try {
    return JSON.parse(text)
  } catch (error) {
    // The whole of V8's message, the bytes it quotes included: SettingError's message escapes them onto one line.
    const problem = `not valid JSON (${(error as Error).message})`
    throw new SettingError(input, problem, 'correct the JSON there', { cause: error })
  }
}

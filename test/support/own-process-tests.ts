/**
 * Which unit test files need a process of their own (issue 45). The `unit` project runs its files without isolation:
 * one worker process and one module graph serve many files in turn, which took 6.2 minutes of CI down to about 4 (most
 * of an isolated file's time was importing the same modules again). That is safe only for a file that leaves nothing
 * behind in its process. These leave something, so `unit-isolated` runs them each in a fresh process:
 * - the NVML addon loaded in this process (the real `nvml.node` on a fake libnvidia-ml): the library it dlopened, its
 *   init refcount and the fake's script, set in `process.env` by `activate()`, stay for the next file, whose fake then
 *   reads the wrong script (test/nvml/native.test.ts after test/nvml/device.test.ts: 28 failures);
 * - module mocks, fake timers and stubbed globals or environment, which Vitest restores per file only in part;
 * - a hook at the top level of a shared helper module, registered only on the first file that imports it.
 * Found by reading, not listed by hand: a file is marked when it, or a module under test/ it imports (at any depth),
 * uses one of the markers below, so a new test that loads the fake is isolated without anyone remembering to list it.
 */
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'

/** What ties a file to its process: the in-process fake NVML or the addon, and Vitest's process-wide stubs. */
const MARKERS: readonly RegExp[] = [
  /\.activate\(\)/,
  /\bopenNvml\(/,
  /\bADDON_PATH\b/,
  /\bvi\.(mock|doMock|unmock|useFakeTimers|stubGlobal|stubEnv)\(/,
  /\bprocess\.chdir\(/,
  /\bprocess\.env(\.\w+|\[[^\]]+\])\s*=[^=]/,
  /Object\.assign\(process\.env/,
]

/**
 * A hook at the top level of a shared module (not of the test file itself, which runs again for every file): it is
 * registered once, on whichever file imported the module first, and never for the files after it.
 */
const MODULE_HOOK = /^(afterAll|afterEach|beforeAll|beforeEach)\(/m

/** Relative imports of a module's source (static and dynamic); bare specifiers (packages, node:) are not followed. */
const IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g

/**
 * The files of `testFiles` (paths relative to `root`) that reach a marker through their relative imports under
 * `test/`. Modules outside test/ (src/, benchmarks/) are not followed: the product's own modules load the addon only
 * when a test opens NVML, and that call is itself a marker in the test's module.
 */
export function ownProcessTestFiles(testFiles: readonly string[], root: string): string[] {
  const testRoot = resolve(root, 'test')
  const marked = new Map<string, boolean>()
  const reaches = (file: string, seen: Set<string>, imported: boolean): boolean => {
    const known = imported ? marked.get(file) : undefined
    if (known !== undefined) return known
    if (seen.has(file)) return false
    seen.add(file)
    let source: string
    try {
      source = readFileSync(file, 'utf8')
    } catch {
      return false // a module that does not exist: the import fails the test itself, with its own error
    }
    let result = MARKERS.some((marker) => marker.test(source)) || (imported && MODULE_HOOK.test(source))
    if (!result) {
      for (const [, spec] of source.matchAll(IMPORT)) {
        const target = resolve(dirname(file), spec!)
        if (target.startsWith(testRoot) && reaches(target, seen, true)) {
          result = true
          break
        }
      }
    }
    if (imported) marked.set(file, result)
    return result
  }
  return testFiles.filter((file) => reaches(resolve(root, file), new Set(), false))
}

// Shared by the monitor tests: the fake libnvidia-ml made current for this process, the addon path, temp log paths.
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createFakeNvml, type FakeNvml, type FakeNvmlScript, type FakeSymbolGroup } from '../../support/fake-nvml.ts'
import { atFileEnd, tempDirUntilFileEnd } from '../../support/temp-dir.ts'

export const ADDON_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../build/Release/nvml.node')

if (!existsSync(ADDON_PATH)) {
  throw new Error(`monitor tests need the addon at ${ADDON_PATH}: build it with \`node native/nvml/build.ts\``)
}

/**
 * A fake scripted with `script`, activated here (and inherited by worker threads started afterwards). Its script
 * directory is removed when the test file ends: callers in beforeAll share it with the tests that follow.
 */
export function useFake(script: FakeNvmlScript, options: { omit?: readonly FakeSymbolGroup[] } = {}): FakeNvml {
  const fake = createFakeNvml(script, options)
  atFileEnd(() => fake.remove())
  fake.activate()
  return fake
}

/** A fresh log path in its own temp directory, removed when the test file ends. */
export function tempLogPath(name = 'gpu_metrics.jsonl'): string {
  return path.join(tempDirUntilFileEnd('monitor-test-'), name)
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

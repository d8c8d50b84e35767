// Shared by the nvml tests: a fake libnvidia-ml made current for this process, and sessions that are always closed.
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach } from 'vitest'
import { type NvmlSession, type OpenNvmlOptions, openNvml } from '../../../src/nvml/session.ts'
import { createFakeNvml, type FakeNvml, type FakeNvmlScript, type FakeSymbolGroup } from '../../support/fake-nvml.ts'

export const ADDON_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../build/Release/nvml.node')

if (!existsSync(ADDON_PATH)) {
  throw new Error(`nvml tests need the addon at ${ADDON_PATH}: build it with \`node native/nvml/build.ts\``)
}

const open: NvmlSession[] = []
const fakes: FakeNvml[] = []

afterEach(() => {
  // Every session shut down, so the fake's refcount is 0 and the next test's script is read at its init.
  for (const session of open.splice(0)) session.close()
  // Only then the fakes' script directories: nothing reads or rewrites them any more.
  for (const fake of fakes.splice(0)) fake.remove()
})

/**
 * A fake scripted with `script`, activated for this process (env read by the fake and by load.ts). Its script
 * directory is removed after the test.
 */
export function useFake(script: FakeNvmlScript, options: { omit?: readonly FakeSymbolGroup[] } = {}): FakeNvml {
  const fake = createFakeNvml(script, options)
  fakes.push(fake)
  fake.activate()
  return fake
}

/** Opens NVML on the active fake; closed after the test. @throws Error when NVML is unavailable. */
export function openSession(options: OpenNvmlOptions = {}): NvmlSession {
  const opened = openNvml({ addonPath: ADDON_PATH, ...options })
  if (!opened.available) throw new Error(`NVML unavailable in test: ${opened.reason}`)
  open.push(opened.session)
  return opened.session
}

/** A warn sink that keeps the messages, to check the once-per-metric rule. */
export function collectWarnings(): { warn: (message: string) => void; messages: string[] } {
  const messages: string[] = []
  return { warn: (message) => messages.push(message), messages }
}
